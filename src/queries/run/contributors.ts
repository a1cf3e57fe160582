/** How contributors is answered: blame every text file under the path and sum lines per author. */
import { blameMany } from "../../index/blame.ts";
import { blameTarget } from "./blame-file.ts";
import { iso, notAt, repoPath, round, treeAt } from "./common.ts";
import type { CONTRIBUTORS_ARGS, ContributorsOutput } from "../contributors.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";

export async function run(ctx: QueryContext, input: Input<typeof CONTRIBUTORS_ARGS>): Promise<ContributorsOutput> {
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const entries = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && entries.length === 0) throw notAt(ctx, scope, prefix, "has no files");
  const targets = entries.map((e) => blameTarget(ctx, scope, e, input.ignoreRevs));
  const blames = [...(await blameMany(ctx.index, targets, ctx.blameWorkers)).values()].filter((b) => !b.binary);
  const byAuthor = ctx.index.store.blame.authors(blames.map((b) => b.id));
  const total = byAuthor.reduce((sum, a) => sum + a.lines, 0);
  const results = byAuthor
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : x.author > y.author ? 1 : x.email < y.email ? -1 : 1))
    .map((a) => ({ author: a.author, email: a.email, lines: a.lines, share: total ? round(a.lines / total) : 0, commits: a.commits, lastChanged: iso(a.last) }));
  return { repo: ctx.index.repo.root, path: prefix, rev: scope.commit, totalLines: total, files: blames.length, results: results.slice(0, input.limit), truncated: results.length > input.limit };
}
