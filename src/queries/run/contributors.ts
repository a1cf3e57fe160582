/** How contributors is answered: blame every text file under the path and sum lines per author. */
import { blameMany } from "../../index/blame.ts";
import { blameTarget } from "./blame-file.ts";
import { iso, repoPath, round, treeAt } from "./common.ts";
import { LoreError } from "../../errors.ts";
import type { CONTRIBUTORS_ARGS, ContributorsOutput } from "../contributors.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";

export async function run(ctx: QueryContext, input: Input<typeof CONTRIBUTORS_ARGS>): Promise<ContributorsOutput> {
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const entries = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && entries.length === 0) throw new LoreError("PATH_NOT_FOUND", `${prefix} has no files at ${scope.atHead ? "HEAD" : scope.commit.slice(0, 12)}; check the name.`);
  const targets = entries.map((e) => blameTarget(ctx, scope, e, input.ignoreRevs));
  const blames = [...(await blameMany(ctx.index, targets, ctx.blameWorkers)).values()].filter((b) => !b.binary);
  const { blame } = ctx.index.store;
  const bySha = blame.authorship(blames.map((b) => b.id));
  const facts = blame.commits(bySha.map((r) => r.sha));
  const byAuthor = new Map<string, { author: string; email: string; lines: number; commits: number; last: number }>();
  let total = 0;
  for (const { sha, lines } of bySha) {
    const c = facts.get(sha)!;
    const key = `${c.author}\0${c.email}`;
    const a = byAuthor.get(key) ?? { author: c.author, email: c.email, lines: 0, commits: 0, last: 0 };
    a.lines += lines;
    a.commits += 1;
    a.last = Math.max(a.last, c.time);
    byAuthor.set(key, a);
    total += lines;
  }
  const results = [...byAuthor.values()]
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : 1))
    .map((a) => ({ author: a.author, email: a.email, lines: a.lines, share: total ? round(a.lines / total) : 0, commits: a.commits, lastChanged: iso(a.last) }));
  return { repo: ctx.index.repo.root, path: prefix, rev: scope.commit, totalLines: total, files: blames.length, results: results.slice(0, input.limit), truncated: results.length > input.limit };
}
