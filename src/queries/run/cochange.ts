/** How cochange is answered: co-occurrence counts over the window, for files that exist at the commit asked about. */
import { LoreError } from "../../errors.ts";
import { repoPath, round, treeAt, windowOf } from "./common.ts";
import type { COCHANGE_ARGS, CochangeOutput } from "../cochange.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

export async function run(ctx: QueryContext, input: Input<typeof COCHANGE_ARGS>): Promise<CochangeOutput> {
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
}
