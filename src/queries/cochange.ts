/** cochange: the files that tend to change in the same commits as a file. */
import { LoreError } from "../errors.ts";
import { repoPath, round, treeAt, windowOf } from "./common.ts";
import { defineQuery } from "./define.ts";
import { WINDOW_ARGS } from "./window-args.ts";

export interface CochangeOutput {
  repo: string;
  path: string;
  rev: string;
  window: { commits: number; since?: string; maxFiles: number };
  commits: number;
  results: { path: string; count: number; confidence: number; jaccard: number }[];
  truncated: boolean;
}

export const cochangeQuery = defineQuery({
  name: "cochange",
  summary: "Files that tend to change in the same commits as PATH",
  description:
    "The files that usually change together with a file (co-change), from commit history: for the commits in the window that touched PATH, how often each other file changed in the same commit. Use before editing a file, to find the tests, docs, configs and call sites that likely need the same change — a question git itself cannot answer. confidence = count / commits touching PATH; jaccard = count / commits touching either.",
  args: {
    path: { type: "string", required: true, positional: true, description: "File path, relative to the repository root (or absolute)." },
    limit: { type: "integer", default: 10, min: 1, max: 200, short: "n", description: "At most this many files (default 10)." },
    ...WINDOW_ARGS,
    maxFiles: { type: "integer", default: 50, min: 1, max: 100000, description: "Leave out commits touching more than this many files (default 50): sweeping changes say little." },
  },
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      window: z.object({ commits: z.number().int(), since: z.string().optional(), maxFiles: z.number().int() }),
      commits: z.number().int(),
      results: z.array(z.object({ path: z.string(), count: z.number().int(), confidence: z.number(), jaccard: z.number() })),
      truncated: z.boolean(),
    }),
  async run(ctx, input): Promise<CochangeOutput> {
    const scope = await ctx.index.scope(input.until);
    const path = repoPath(ctx, input.path);
    const pid = ctx.index.store.history.pathId(path);
    if (path === "" || pid === undefined) throw new LoreError("PATH_NOT_FOUND", `${path || "(root)"} never appears in this repository's history; name a file git knows.`);
    const w = await windowOf(ctx, scope, input.commits, input.since);
    const info = ctx.index.store.history.windowInfo(w);
    const { commits, rows } = ctx.index.store.history.cochange(w, pid, input.maxFiles);
    const existing = new Set((await treeAt(ctx, scope)).map((e) => e.path));
    const results = rows
      .filter((r) => existing.has(r.path))
      .map((r) => ({ path: r.path, count: r.count, confidence: round(r.count / commits), jaccard: round(r.count / (commits + r.touching - r.count)) }))
      .sort((x, y) => y.count - x.count || y.jaccard - x.jaccard || (x.path < y.path ? -1 : 1));
    return {
      repo: ctx.index.repo.root,
      path,
      rev: scope.commit,
      window: { commits: info.commits, ...(w.label.since ? { since: w.label.since } : {}), maxFiles: input.maxFiles },
      commits,
      results: results.slice(0, input.limit),
      truncated: results.length > input.limit,
    };
  },
});
