/** Reads the change a review is about with one git diff (plus the untracked files): which files, their +/-, the old side's deleted lines. */
import { existsSync, openSync, readSync, closeSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LoreError } from "../../errors.ts";
import { looksBinary, BINARY_PROBE_BYTES } from "../../git/binary.ts";
import { parseDiffWithHunks, type ChangedFile } from "../../git/parse-diff-hunks.ts";
import { fromLatin1 } from "../../git/paths.ts";
import { git, gitMaybe } from "../../git/run.ts";
import { countLines } from "../../index/line-counts.ts";
import type { QueryContext } from "../context.ts";
import type { ReviewOutput } from "../review.ts";
import { commitOf } from "./repo-diff.ts";
import { refreshedIndex } from "./review-index.ts";

export interface Change {
  head: string;
  /** The commit the change is read against: HEAD, or the merge base with BASE. */
  oldSide: string;
  base?: string;
  mergeBase?: string;
  state?: ReviewOutput["state"];
  files: ChangedFile[];
  /** Files not known to git, listed as added (their lines counted only when listed). */
  untracked: Set<string>;
}

/**
 * diff.autoRefreshIndex=false: `git diff HEAD` would otherwise rewrite .git/index when files
 * changed timestamps but not content; -U0 with no inter-hunk context keeps each deletion its own
 * hunk; no external diff or textconv driver runs.
 */
const DIFF = ["-c", "diff.autoRefreshIndex=false", "--literal-pathspecs", "diff", "--raw", "--numstat", "-p", "-U0", "--inter-hunk-context=0", "-z", "-M", "--no-ext-diff", "--no-textconv", "--no-color"];

/** The operation half done in this work tree, from the files git keeps while it waits for the user. */
export function repoState(gitDir: string): ReviewOutput["state"] {
  if (existsSync(join(gitDir, "rebase-merge")) || existsSync(join(gitDir, "rebase-apply"))) return "rebase";
  if (existsSync(join(gitDir, "MERGE_HEAD"))) return "merge";
  if (existsSync(join(gitDir, "CHERRY_PICK_HEAD"))) return "cherry-pick";
  if (existsSync(join(gitDir, "REVERT_HEAD"))) return "revert";
  return undefined;
}

export async function readChange(ctx: QueryContext, head: string, opts: { base?: string; staged: boolean; paths: string[] }): Promise<Change> {
  const { base, staged, paths } = opts;
  if (base !== undefined && staged) throw new LoreError("BAD_ARGUMENT", "Give a BASE or --staged, not both: --staged reviews the staging area against HEAD, BASE what the branch changed since it left BASE.");
  const gitOpts = ctx.index.git;
  const state = repoState(ctx.index.repo.gitDir);
  if (base !== undefined) {
    const baseSha = await commitOf(ctx, base).catch((err) => {
      if (err instanceof LoreError && err.code === "BAD_REVISION")
        throw new LoreError("BAD_REVISION", `"${base}" is neither a revision git knows nor a path in this repository; pass a branch, tag or commit (git branch -a lists them), or a path that exists.`);
      throw err;
    });
    const mergeBase = (await gitMaybe(["merge-base", baseSha, head], gitOpts))?.toString("utf8").trim();
    if (!mergeBase) throw new LoreError("BAD_REVISION", `${base} and HEAD have no common history: there is no merge base to review the branch from.`);
    const files = parseDiffWithHunks(await git([...DIFF, mergeBase, head, "--", ...paths], gitOpts));
    return { head, oldSide: mergeBase, base: baseSha, mergeBase, files, untracked: new Set(), ...(state ? { state } : {}) };
  }
  // Against the work tree, the refreshed copy of the index spares a fresh checkout's re-hashing; --cached reads no file.
  const copy = staged ? undefined : await refreshedIndex(ctx);
  const diffOpts = copy ? { ...gitOpts, env: { ...gitOpts.env, GIT_INDEX_FILE: copy } } : gitOpts;
  const [diff, untracked] = await Promise.all([
    git([...DIFF, ...(staged ? ["--cached"] : []), "HEAD", "--", ...paths], diffOpts),
    staged ? Promise.resolve(null) : git(["--literal-pathspecs", "ls-files", "--others", "--exclude-standard", "-z", "--", ...paths], gitOpts),
  ]);
  const files = parseDiffWithHunks(diff);
  const added = new Set<string>();
  if (untracked) {
    // A path git diff already lists (deleted from the staging area, still on disk) keeps git diff's record.
    const listed = new Set(files.map((f) => f.path));
    for (const p of untracked.toString("latin1").split("\0")) if (p && !listed.has(fromLatin1(p))) added.add(fromLatin1(p));
    for (const path of added) files.push({ status: "A", path, oldMode: "000000", newMode: "100644", additions: 0, deletions: 0, deleted: [] });
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  if (state) await markConflicts(ctx, files);
  return { head, oldSide: head, files, untracked: added, ...(state ? { state } : {}) };
}

/** Counts an untracked file's lines as git would add them: null for a binary file (read only for the files listed). */
export function untrackedCounts(root: string, path: string): { additions: number | null } {
  const full = join(root, path);
  try {
    const fd = openSync(full, "r");
    const start = Buffer.alloc(BINARY_PROBE_BYTES);
    const n = readSync(fd, start, 0, start.length, 0);
    closeSync(fd);
    // The probe spares reading a large binary file whole.
    if (looksBinary(start.subarray(0, n))) return { additions: null };
    return { additions: countLines(readFileSync(full)) };
  } catch {
    // A folder (a nested repository) or a file gone meanwhile: nothing to count.
    return { additions: 0 };
  }
}

/** The unmerged paths of a half-done merge or rebase: their diff is what is on disk, markers included. */
async function markConflicts(ctx: QueryContext, files: ChangedFile[]): Promise<void> {
  const out = await git(["ls-files", "-u", "-z"], ctx.index.git);
  const unmerged = new Set(out.toString("latin1").split("\0").filter(Boolean).map((e) => fromLatin1(e.slice(e.indexOf("\t") + 1))));
  for (const f of files) if (unmerged.has(f.path)) f.conflict = true;
}
