/** Pieces several questions share: paths, files at a commit, windows of history, times. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LoreError } from "../../errors.ts";
import { repoRelativePath } from "../../git/repo-path.ts";
import { gitText } from "../../git/run.ts";
import type { TreeEntry } from "../../git/records.ts";
import type { Scope } from "../../index/repo-index.ts";
import { lsTree } from "../../index/tree.ts";
import { readHeadCommit } from "../../git/head-file.ts";
import type { WindowSpec } from "../../store/window-store.ts";
import type { QueryContext } from "../context.ts";
import { badDate, checkDate } from "../date-text.ts";
import { plural } from "../../plural.ts";

export function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(".000Z", "Z");
}

/** The repository-relative form of a path argument ("" = the whole repository). */
export function repoPath(ctx: QueryContext, input: string | undefined): string {
  if (input === undefined || input === "" || input === ".") return "";
  const rel = repoRelativePath(ctx.index.repo.root, input);
  return rel === "." ? "" : rel.replace(/\/+$/, "");
}

/** Whether `path` is `prefix` or inside it ("" is the whole repository). */
export function isUnder(path: string, prefix: string): boolean {
  return prefix === "" || path === prefix || path.startsWith(prefix + "/");
}

/** The tree entries at the scope's commit, optionally only those under `prefix`. */
export async function treeAt(ctx: QueryContext, scope: Scope, prefix = ""): Promise<readonly TreeEntry[]> {
  const all = scope.atHead ? ctx.index.store.tree.entries() : await lsTree(ctx.index, scope.commit);
  if (prefix === "") return all;
  return all.filter((e) => isUnder(e.path, prefix));
}

/** The file `path` names at the scope's commit; a clear error when it is missing, a folder or a submodule. */
export async function fileAt(ctx: QueryContext, scope: Scope, path: string): Promise<TreeEntry> {
  if (path === "") throw new LoreError("NOT_A_FILE", "This question needs a file path, not the repository root.");
  const entry = scope.atHead ? ctx.index.store.tree.entry(path) : (await lsTree(ctx.index, scope.commit, [path])).find((e) => e.path === path);
  if (entry) {
    if (entry.type === "commit") throw new LoreError("NOT_A_FILE", `${path} is a submodule; ask lore inside it (--repo ${path}).`);
    return entry;
  }
  const under = await treeAt(ctx, scope, path);
  if (under.length > 0) throw new LoreError("NOT_A_FILE", `${path} is a folder; this question needs a file inside it.`);
  throw notAt(ctx, scope, path, "does not exist");
}

/** Whether `prefix` names a file, or a folder with files, at the scope's commit. */
export async function existsAt(ctx: QueryContext, scope: Scope, prefix: string): Promise<boolean> {
  return scope.atHead ? ctx.index.store.tree.hasUnder(prefix) : (await treeAt(ctx, scope, prefix)).length > 0;
}

/**
 * The folder whose files the agent sees: the disk file a line question reads lives here. The one
 * place that says it, so the worktree that holds a path can take over without touching the questions.
 */
export function workTreeRoot(ctx: QueryContext): string {
  return ctx.index.repo.root;
}

/** A path only in the work tree (created, not committed yet): said plainly, since lore answers from commits. */
function onlyInWorkTree(ctx: QueryContext, path: string, clause: string): LoreError | undefined {
  if (path === "" || !existsSync(join(workTreeRoot(ctx), path))) return undefined;
  return new LoreError("PATH_NOT_FOUND", `${path} is not committed: this answer comes from commits, and ${clause}. Commit it, or ask about a committed path (blame, intent and a line history read the file on disk unless --until names a revision).`);
}

/** PATH_NOT_FOUND for a path no commit ever had. */
export function neverCommitted(ctx: QueryContext, path: string): LoreError {
  return (
    onlyInWorkTree(ctx, path, "no commit has it yet") ??
    new LoreError("PATH_NOT_FOUND", `${path || "(root)"} never appears in this repository's history; check the name (git ls-files lists the files).`)
  );
}

/** PATH_NOT_FOUND for a path missing at the scope's commit ("does not exist", "has no files"). */
export function notAt(ctx: QueryContext, scope: Scope, path: string, what: string): LoreError {
  const isHead = scope.atHead || scope.commit === readHeadCommit(ctx.index.repo);
  return (
    (isHead ? onlyInWorkTree(ctx, path, "HEAD does not have it") : undefined) ??
    new LoreError("PATH_NOT_FOUND", `${path} ${what} at ${isHead ? "HEAD" : scope.commit.slice(0, 12)}; check the name (git ls-files lists the files) or pass --until with a commit where it existed.`)
  );
}

/** Thrown by a question answering from the newest commits of a first index (Scope.prefix) when they do not yet give its whole answer. */
export class HistoryNotYet extends Error {
  constructor() {
    super("The history indexed so far does not give the whole answer yet.");
  }
}

/** Parses `commits` ("all" or a count) and `since` (any date git understands) into a window. */
/**
 * The window a windowed question reads: the newest `commits` of the scope (or all), from `since`
 * on; with `under` (a path), the newest commits that changed something at or under it.
 */
export async function windowOf(
  ctx: QueryContext,
  scope: Scope,
  commits: string,
  since: string | undefined,
  under = "",
): Promise<WindowSpec & { label: { commits: string; since?: string } }> {
  let limit: number | null;
  if (commits === "all") limit = null;
  else if (/^\d+$/.test(commits) && Number(commits) > 0) limit = Number(commits);
  else throw new LoreError("BAD_ARGUMENT", `--commits takes a positive number or "all", not "${commits}".`);
  // While a first index runs, a window of the newest N commits is whole once N of them are in
  // (under a path: once N of the commits indexed so far changed it, which the caller counts).
  if (scope.prefix !== undefined && (since !== undefined || limit === null || (under === "" && scope.prefix < limit))) throw new HistoryNotYet();
  const sinceTime = since === undefined ? null : await parseSince(ctx, since);
  return { scope: scope.table, limit, since: sinceTime, ...(under ? { under } : {}), label: { commits, ...(since !== undefined ? { since: iso(sinceTime!) } : {}) } };
}

/** A date git understands (2024-01-31, "3 months ago") as Unix seconds; a bare calendar date is the start of that day. */
export function parseSince(ctx: QueryContext, since: string): Promise<number> {
  // A bare calendar date means the start of that day; git alone would keep the clock's time of day.
  return gitDate(ctx, since, "--since", true);
}

/**
 * A date in a form lore reads (date-text.ts), as git reads it, in Unix seconds; BAD_ARGUMENT for any
 * other (git would quietly read it as now). `flag` names it in messages. `startOfDay`: a bare
 * calendar date is that day's first second.
 */
export async function gitDate(ctx: QueryContext, text: string, flag: string, startOfDay = false): Promise<number> {
  const read = checkDate(flag, text);
  const date = startOfDay && /^\d{4}-\d{2}-\d{2}$/.test(read) ? `${read} 00:00:00` : read;
  const out = await gitText(["rev-parse", `--since=${date}`], ctx.index.git).catch(() => "");
  const m = /--max-age=(\d+)/.exec(out);
  if (!m) throw badDate(flag, text);
  return Number(m[1]);
}

/** The line range of a question, checked against the file's length. */
export function lineRange(start: number | undefined, end: number | undefined, lines: number, path: string): [number, number] {
  const a = start ?? 1;
  const b = end ?? lines;
  if (a < 1 || b < 1) throw new LoreError("BAD_RANGE", `Line numbers start at 1, not ${Math.min(a, b)}; ask for -L START,END with 1 <= START <= END.`);
  if (b < a) throw new LoreError("BAD_RANGE", `The range ${a},${b} ends before it starts; ask for -L START,END with START <= END.`);
  if (lines === 0) throw new LoreError("BAD_RANGE", `${path} is empty: it has no lines to ask about.`);
  if (a > lines || b > lines) throw new LoreError("BAD_RANGE", `${path} has only ${plural(lines, "line")}; ask for lines within 1,${lines}.`);
  return [a, b];
}

/** Ratios are rounded to 2 decimals (DESIGN: answer conventions). */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The 12-hex form of a commit id that lists and tables carry (DESIGN: answer conventions). */
export function shortSha(sha: string): string {
  return sha.slice(0, 12);
}
