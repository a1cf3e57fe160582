/** How hotspots is answered: activity per file over the window, weighted by line counts. */
import { ignoredCommitIds } from "./ignored-revs.ts";
import { walkStops } from "./history-stops.ts";
import { lineCounts } from "../../index/line-counts.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { ActivityRow } from "../../store/window-store.ts";
import { existsAt, HistoryNotYet, isUnder, iso, notAt, repoPath, round, treeAt, windowOf } from "./common.ts";
import { complexities, kneeOf } from "./hotspot-files.ts";
import { noiseAmong } from "./noise-files.ts";
import type { HOTSPOTS_ARGS, HotspotsOutput } from "../hotspots.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

/** score = commits in the window × log10(10 + lines): change frequency first, tilted toward big files (1× at 0 lines, 2× at 90, 3× at 990). */
export function hotspotScore(commits: number, lines: number): number {
  return round(commits * Math.log10(10 + lines), 2);
}

/**
 * The blob of a file that changed in the window, if it exists now under the prefix. At HEAD
 * the stored tree answers in the same query (a 20,000-file tree is never loaded whole); at
 * another commit git lists that tree.
 */
async function blobLookup(ctx: QueryContext, scope: Scope, prefix: string): Promise<(a: ActivityRow) => string | undefined> {
  const under = (path: string) => isUnder(path, prefix);
  if (scope.atHead) return (a) => (a.headBlob !== null && under(a.path) ? a.headBlob : undefined);
  const tree = new Map((await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob").map((e) => [e.path, e.blob]));
  return (a) => tree.get(a.path);
}

export async function run(ctx: QueryContext, input: Input<typeof HOTSPOTS_ARGS>): Promise<HotspotsOutput> {
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  if (prefix !== "" && !(await existsAt(ctx, scope, prefix))) throw notAt(ctx, scope, prefix, "has no files");
  // The newest commits under the path, not of the repository: a quiet folder still has its history.
  // Reformatting commits (.git-blame-ignore-revs) are not where risk concentrates: out unless --all.
  const w = { ...(await windowOf(ctx, scope, input.commits, input.since, prefix)), skip: ignoredCommitIds(ctx, input.all) };
  const { windows } = ctx.index.store;
  const info = windows.windowInfo(w);
  // During a first index, a window under a path is whole once enough of the commits read so far changed it.
  if (scope.prefix !== undefined && w.limit !== null && info.commits < w.limit) throw new HistoryNotYet();
  const blobOf = await blobLookup(ctx, scope, prefix);
  // Lockfiles, generated and vendored files are noise to someone looking for risky code: out unless asked for.
  const noise = input.all ? new Set<string>() : await noiseAmong(ctx, scope, windows.activity(w).filter((a) => blobOf(a) !== undefined).map((a) => a.path));
  const current = () => windows.activity(w).filter((a) => blobOf(a) !== undefined && !noise.has(a.path));
  let activity = current();
  if (activity.some((a) => a.churnUnknown > 0)) {
    // Churn of the window's commits not indexed yet: fetch it now.
    await ctx.index.ensureChurn(windows.windowShas(w));
    activity = current();
  }
  // Line counts the index has not measured yet (or of another commit's blobs) come from git once.
  const unmeasured = activity.filter((a) => !scope.atHead || a.headLines === -1).map((a) => blobOf(a)!);
  const counts = unmeasured.length ? await lineCounts(ctx.index, unmeasured) : new Map<string, number | null>();
  // The knee is the first point past the drop: the hotspots are the files above it.
  const knee = kneeOf(activity.map((a) => a.commits).sort((x, y) => y - x));
  const ranked = activity
    .map((a) => {
      const lines = (scope.atHead && a.headLines !== -1 ? a.headLines : counts.get(blobOf(a)!)) ?? 0;
      return { a, path: a.path, commits: a.commits, lines, score: hotspotScore(a.commits, lines) };
    })
    .sort((x, y) => y.score - x.score || y.commits - x.commits || (x.path < y.path ? -1 : 1));
  const shown = ranked.slice(0, input.limit);
  const complexity = await complexities(ctx, shown.map((x) => blobOf(x.a)!));
  const results = shown.map(({ a, lines, score }) => ({
    path: a.path,
    commits: a.commits,
    additions: a.additions,
    deletions: a.deletions,
    authors: a.authors,
    lastChanged: iso(a.last),
    lines,
    complexity: complexity.get(blobOf(a)!) ?? 0,
    score,
    hotspot: a.commits > knee,
  }));
  return {
    repo: ctx.index.repo.root,
    path: prefix,
    rev: scope.commit,
    window: { commits: info.commits, ...(w.label.since ? { since: w.label.since } : {}) },
    results,
    truncated: ranked.length > input.limit,
    // A window that holds a boundary commit, or fewer commits than it may, reached where a shallow clone's history stops.
    ...(await walkStops(ctx, () => windows.windowShas(w), w.limit === null || info.commits < w.limit, w.since ?? undefined)),
  };
}
