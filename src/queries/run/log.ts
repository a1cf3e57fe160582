/** How log is answered: the commits from the index in git log's order, their files and +/- from the churn pass. */
import { LoreError } from "../../errors.ts";
import { resolveCommit } from "../../git/repo.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { LOG_ARGS, LogOutput } from "../log.ts";
import { neverCommitted, repoPath } from "./common.ts";
import { logCommits } from "./log-commits.ts";
import { checkCount } from "./repo-diff.ts";
import { gitDate } from "./common.ts";
import { markBoundary, walkStops } from "./history-stops.ts";

/** The repository-relative forms of path arguments; the root itself means no path at all. */
export function repoPaths(ctx: QueryContext, inputs: string[] | undefined): string[] {
  const paths = (inputs ?? []).map((p) => repoPath(ctx, p));
  return paths.includes("") ? [] : [...new Set(paths)];
}

/** PATH_NOT_FOUND for a path no indexed commit ever touched (a typo would otherwise be an empty answer). */
export function checkPathsKnown(ctx: QueryContext, paths: string[]): void {
  for (const p of paths) {
    if (!ctx.index.store.log.knownPath(p)) throw neverCommitted(ctx, p);
  }
}

export async function run(ctx: QueryContext, input: Input<typeof LOG_ARGS>): Promise<LogOutput> {
  const scope = await ctx.index.scope(input.until);
  const paths = repoPaths(ctx, input.paths);
  if (scope.prefix === undefined) checkPathsKnown(ctx, paths);
  const since = input.since === undefined ? undefined : await gitDate(ctx, input.since, "--since");
  const before = input.before === undefined ? undefined : await gitDate(ctx, input.before, "--before");
  const not = input.not === undefined ? undefined : await resolveCommit(ctx.index.repo, input.not);
  if (input.author === "") throw new LoreError("BAD_ARGUMENT", "--author takes a text to look for, not an empty one.");
  const skip = input.skip ?? 0;
  const log = await logCommits(ctx, scope, {
    paths,
    limit: skip + checkCount("--limit", input.limit, 10_000),
    author: input.author,
    since,
    before,
    not,
    firstParent: input.firstParent,
    noMerges: input.noMerges,
    fullDiff: input.fullDiff,
  });
  // The rest of a cut list: what the first answer listed is not said again.
  const commits = await markBoundary(ctx, log.commits.slice(skip), true);
  // With --not the walk ends at that revision's history, which may be above the boundary: only a boundary commit listed says it.
  const stops = await walkStops(ctx, log.commits.map((c) => c.sha), !log.truncated && not === undefined, since);
  return { repo: ctx.index.repo.root, rev: scope.commit, paths, commits, truncated: log.truncated, ...(log.leftOut.length ? { leftOut: log.leftOut } : {}), ...stops };
}
