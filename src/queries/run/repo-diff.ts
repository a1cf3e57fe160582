/** What the index does not keep, asked of git: a diff between two commits (files with +/-, or the patch), a date. */
import { LoreError } from "../../errors.ts";
import { parseRawNumstat, type DiffFile } from "../../git/parse-diff.ts";
import { readHeadCommit } from "../../git/head-file.ts";
import { resolveCommit } from "../../git/repo.ts";
import { git } from "../../git/run.ts";
import type { LogFile } from "../log.ts";
import type { QueryContext } from "../context.ts";

/** Paths are literal (a * or : in a name is just a character). */
const DIFF_ARGS = ["--literal-pathspecs", "diff-tree", "-r", "-z", "-M", "--no-commit-id", "--no-ext-diff", "--no-textconv", "--no-color"];

/** The trees compared: `to` against `from`, or against its first parent (none for a root commit). */
function treeArgs(from: string | null, to: string): string[] {
  return from === null ? ["--root", to] : [from, to];
}

/** The files `to` changed against `from` (null: against its parent, as git show does for a single-parent commit). */
export async function diffFiles(ctx: QueryContext, from: string | null, to: string, paths: string[]): Promise<DiffFile[]> {
  const out = await git([...DIFF_ARGS, "--raw", "--numstat", ...treeArgs(from, to), "--", ...paths], ctx.index.git);
  return parseRawNumstat(out);
}

/**
 * The files each commit changed against the parent given, for many commits in one git process:
 * a line "COMMIT PARENT" each (the parent as git reads the rest of the line); with --always git
 * prints COMMIT before each pair's records, even none.
 */
export async function diffFilesMany(ctx: QueryContext, pairs: { parent: string; sha: string }[], paths: string[]): Promise<DiffFile[][]> {
  if (pairs.length === 0) return [];
  const args = DIFF_ARGS.filter((a) => a !== "--no-commit-id");
  const out = await git([...args, "--raw", "--numstat", "--always", "--stdin", "--", ...paths], { ...ctx.index.git, input: pairs.map((p) => `${p.sha} ${p.parent}\n`).join("") });
  const text = out.toString("latin1");
  // Split before each header: the next pair's commit as a whole token.
  const starts: number[] = [];
  let pos = 0;
  for (const p of pairs) {
    const header = p.sha + "\0";
    const found = text.startsWith(header, pos) ? pos : text.indexOf("\0" + header, pos) + 1;
    if (found === 0 && pos !== 0) throw new Error(`git diff-tree --stdin lost its place at ${p.sha}`);
    starts.push(found);
    pos = found + header.length;
  }
  return pairs.map((_, i) => parseRawNumstat(Buffer.from(text.slice(starts[i]! + 41, starts[i + 1] ?? text.length), "latin1")));
}

/** The unified diff of `to` against `from` under `paths`, cut after `maxLines` lines. */
export async function diffPatch(ctx: QueryContext, from: string | null, to: string, paths: string[], maxLines: number): Promise<{ patch: string; truncated: boolean }> {
  const out = (await git([...DIFF_ARGS.filter((a) => a !== "-z"), "-p", ...treeArgs(from, to), "--", ...paths], ctx.index.git)).toString("utf8");
  return cutPatch(out, maxLines);
}

/** A patch cut after `maxLines` lines (a cut one still ends with a newline). */
export function cutPatch(out: string, maxLines: number): { patch: string; truncated: boolean } {
  const lines = out.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length <= maxLines) return { patch: out, truncated: false };
  return { patch: lines.slice(0, maxLines).join("\n") + "\n", truncated: true };
}

/** A file change in an answer: status only when not M, oldPath only when renamed or copied, binary instead of +/-. */
export function fileOut(f: { path: string; oldPath?: string | null; status: string; additions: number | null; deletions: number | null }): LogFile {
  const out: LogFile = { path: f.path };
  if (f.additions === null) out.binary = true;
  else {
    out.additions = f.additions;
    out.deletions = f.deletions ?? 0;
  }
  if (f.status !== "M") out.status = f.status;
  if (f.oldPath && (f.status === "R" || f.status === "C")) out.oldPath = f.oldPath;
  return out;
}

/** Bounds the MCP schema leaves out to save bytes, checked here alike on every face. */
export function checkCount(flag: string, value: number, max = 100_000): number {
  if (value < 1 || value > max) throw new LoreError("BAD_ARGUMENT", `${flag} must be between 1 and ${max}, not ${value}.`);
  return value;
}

/**
 * A revision to a full sha: a full sha the index knows, or HEAD with ~N and ^N steps over
 * indexed parents, without a git process (a quarter of show's time); anything else asks git.
 */
export async function commitOf(ctx: QueryContext, rev: string): Promise<string> {
  const history = ctx.index.store.history;
  if (/^[0-9a-f]{40}$/.test(rev) && history.commitId(rev) !== undefined) return rev;
  const m = /^HEAD((?:[~^]\d*)*)$/.exec(rev);
  const head = m ? readHeadCommit(ctx.index.repo) : undefined;
  if (m && head) {
    let sha: string | undefined = head;
    for (const [, op, n] of m[1]!.matchAll(/([~^])(\d*)/g)) {
      const count = n === "" ? 1 : Number(n);
      if (op === "~") for (let i = 0; i < count && sha; i++) sha = history.commitBySha(sha)?.parents.split(" ")[0] || undefined;
      else if (count > 0) sha = sha ? history.commitBySha(sha)?.parents.split(" ")[count - 1] || undefined : undefined;
      if (!sha) break;
    }
    if (sha && history.commitId(sha) !== undefined) return sha;
  }
  return resolveCommit(ctx.index.repo, rev);
}
