/** hotspots: the files that change most, weighted by their size. */
import { lineCounts } from "../index/line-counts.ts";
import { iso, repoPath, round, treeAt, windowOf } from "./common.ts";
import { defineQuery } from "./define.ts";
import { WINDOW_ARGS } from "./window-args.ts";

export interface HotspotsOutput {
  repo: string;
  path: string;
  rev: string;
  window: { commits: number; since?: string };
  results: { path: string; commits: number; additions: number; deletions: number; authors: number; lastChanged: string; lines: number; score: number }[];
  truncated: boolean;
}

/** score = commits in the window × log10(10 + lines): change frequency first, tilted toward big files (1× at 0 lines, 2× at 90, 3× at 990). */
export function hotspotScore(commits: number, lines: number): number {
  return round(commits * Math.log10(10 + lines), 2);
}

export const hotspotsQuery = defineQuery({
  name: "hotspots",
  summary: "The files that change most (churn × size), under PATH",
  description:
    "The files that changed most in recent history, ranked by score = commits × log10(10 + lines): where bugs and merge conflicts concentrate. Use to orient in an unfamiliar codebase or before refactoring; narrow to a folder with path. Counts only files that exist now.",
  args: {
    path: { type: "string", positional: true, description: "Only files under this folder (default: the whole repository)." },
    limit: { type: "integer", default: 10, min: 1, max: 1000, short: "n", description: "At most this many files (default 10)." },
    ...WINDOW_ARGS,
  },
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      window: z.object({ commits: z.number().int(), since: z.string().optional() }),
      results: z.array(
        z.object({
          path: z.string(),
          commits: z.number().int(),
          additions: z.number().int(),
          deletions: z.number().int(),
          authors: z.number().int(),
          lastChanged: z.string(),
          lines: z.number().int(),
          score: z.number(),
        }),
      ),
      truncated: z.boolean(),
    }),
  async run(ctx, input): Promise<HotspotsOutput> {
    const scope = await ctx.index.scope(input.until);
    const prefix = repoPath(ctx, input.path);
    const w = await windowOf(ctx, scope, input.commits, input.since);
    const { history } = ctx.index.store;
    const tree = new Map((await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob").map((e) => [e.path, e]));
    let activity = history.activity(w).filter((a) => tree.has(a.path));
    if (activity.some((a) => a.churnUnknown > 0)) {
      // Churn of the window's commits not indexed yet: fetch it now.
      await ctx.index.ensureChurn(history.windowShas(w));
      activity = history.activity(w).filter((a) => tree.has(a.path));
    }
    const counts = await lineCounts(ctx.index, activity.map((a) => tree.get(a.path)!.blob));
    const results = activity
      .map((a) => {
        const lines = counts.get(tree.get(a.path)!.blob) ?? 0;
        return { path: a.path, commits: a.commits, additions: a.additions, deletions: a.deletions, authors: a.authors, lastChanged: iso(a.last), lines, score: hotspotScore(a.commits, lines) };
      })
      .sort((x, y) => y.score - x.score || y.commits - x.commits || (x.path < y.path ? -1 : 1));
    const info = history.windowInfo(w);
    return {
      repo: ctx.index.repo.root,
      path: prefix,
      rev: scope.commit,
      window: { commits: info.commits, ...(w.label.since ? { since: w.label.since } : {}) },
      results: results.slice(0, input.limit),
      truncated: results.length > input.limit,
    };
  },
});
