/** How history is answered: the file's changes from the index, following renames and copies, with churn filled on demand. */
import { LoreError } from "../../errors.ts";
import type { PathChangeRow } from "../../store/history-store.ts";
import type { Scope } from "../../index/repo-index.ts";
import { lsTree } from "../../index/tree.ts";
import { HistoryNotYet, iso, neverCommitted, repoPath, shortSha } from "./common.ts";
import type { QueryContext } from "../context.ts";
import { fileChanges, gitFileChanges } from "./follow.ts";
import { unreadableInList } from "./show-unreadable.ts";
import type { HISTORY_ARGS, HistoryCommit, HistoryOutput } from "../history.ts";
import type { Input } from "../define.ts";
import { boundaryCommit, indexBoundaryOf, historyStops } from "./history-stops.ts";
import { familyFor, withProvenance } from "./provenance.ts";
import { ignoredRevs } from "./ignored-revs.ts";

export async function run(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>): Promise<HistoryOutput> {
  const scope = await ctx.index.scope(input.until);
  const path = repoPath(ctx, input.path);
  if (path === "") throw new LoreError("NOT_A_FILE", "history needs a file path, not the repository root.");
  if (scope.prefix !== undefined) return answer(ctx, scope, path, await duringFirstIndex(ctx, scope, path, input.limit, input.follow), input.limit);
  if (ctx.index.store.history.pathId(path) === undefined) {
    const under = ctx.index.store.history.pathsUnder(path + "/");
    if (under.length > 0) throw new LoreError("NOT_A_FILE", `${path} is a folder; history needs a file inside it.`);
    throw neverCommitted(ctx, path);
  }
  // Without --follow, git's history simplification decides which commits show, and the index keeps no merge diffs: git lists them.
  // A name that is a folder at this commit (a file here once): git's pathspec would list the folder's commits.
  if (ctx.index.store.history.hasPathsUnder(path) && (await isFolderAt(ctx, scope.commit, path))) throw new LoreError("NOT_A_FILE", `${path} is a folder; history needs a file inside it.`);
  const rows = input.follow ? await fileChanges(ctx, scope, path, input.limit) : await gitFileChanges(ctx, scope.commit, path, input.limit, false);
  return answer(ctx, scope, path, rows, input.limit);
}

/**
 * While a first index is still running: git's own --follow walk, which needs no index (one git
 * process, where waiting for the index could take seconds on a long history; --no-follow is
 * git's walk in any case). Anything git finds nothing for waits, to get the index's own error.
 */
async function duringFirstIndex(ctx: QueryContext, scope: Scope, path: string, limit: number, follow: boolean): Promise<PathChangeRow[]> {
  if (await isFolderAt(ctx, scope.commit, path)) throw new LoreError("NOT_A_FILE", `${path} is a folder; history needs a file inside it.`);
  const rows = await gitFileChanges(ctx, scope.commit, path, limit, follow);
  if (rows.length === 0) throw new HistoryNotYet();
  return rows;
}

/** Whether `path` is a folder at `commit` (ls-tree -r lists the files under it). */
async function isFolderAt(ctx: QueryContext, commit: string, path: string): Promise<boolean> {
  return (await lsTree(ctx.index, commit, [path])).some((e) => e.path.startsWith(`${path}/`));
}

/** The answer from up to limit + 1 changes, newest first: churn filled where the index has not measured it yet. */
async function answer(ctx: QueryContext, scope: Scope, path: string, found: PathChangeRow[], limit: number): Promise<HistoryOutput> {
  let rows = found.slice(0, limit);
  if (rows.some((r) => r.churn === 0)) {
    await ctx.index.ensureChurn(rows.filter((r) => r.churn === 0).map((r) => r.sha));
    rows = rows.map((r) => (r.churn === 0 ? { ...r, ...pickChurn(ctx, r) } : r));
  }
  const family = familyFor(ctx, path);
  const ignored = ignoredRevs(ctx);
  const commits = rows.map((r) => {
    const c: HistoryCommit = { sha: shortSha(r.sha), author: r.author, time: iso(r.time), subject: r.subject, additions: r.additions, deletions: r.deletions };
    if (r.status !== "M") c.status = r.status;
    if (r.path !== path) c.path = r.path;
    if (r.old_path && (r.status === "R" || r.status === "C")) c.oldPath = r.old_path;
    if (ignored(r.sha)) c.ignored = true;
    return withProvenance(ctx, c, r.sha, family);
  });
  // A shallow clone's boundary commit: git diffs it against nothing, so the file looks added there with all its lines.
  const boundary = await indexBoundaryOf(ctx);
  const reached: string[] = [];
  for (const [i, r] of rows.entries()) {
    if (!boundaryCommit(boundary, r.sha)) continue;
    reached.push(r.sha);
    const { status: _s, ...c } = commits[i]!;
    commits[i] = { ...c, additions: null, deletions: null, boundary: true };
  }
  // A version git cannot read has unknown counts, as a binary one has: said so, and why.
  const leftOut = new Set<string>();
  for (const [i, r] of rows.entries()) {
    if (r.additions !== null || commits[i]!.boundary) continue;
    const why = (await unreadableInList(ctx, r.sha, [{ path: r.path, binary: true }])).get(r.path);
    if (!why) continue;
    commits[i]!.unreadable = true;
    leftOut.add(why);
  }
  const stops = historyStops(boundary, reached);
  return { repo: ctx.index.repo.root, path, rev: scope.commit, commits, truncated: found.length > limit, ...(leftOut.size ? { leftOut: [...leftOut] } : {}), ...(stops ? { historyStops: stops } : {}) };
}

function pickChurn(ctx: QueryContext, r: PathChangeRow): Pick<PathChangeRow, "additions" | "deletions"> {
  const fresh = ctx.index.store.history.changeIn(r.sha, r.path);
  return { additions: fresh?.additions ?? null, deletions: fresh?.deletions ?? null };
}
