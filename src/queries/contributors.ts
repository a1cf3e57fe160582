/** contributors: who wrote the lines that exist now, under a path. */
import { blameMany } from "../index/blame.ts";
import { blameTarget } from "./blame-file.ts";
import { iso, repoPath, round, treeAt } from "./common.ts";
import { LoreError } from "../errors.ts";
import { defineQuery } from "./define.ts";

export interface ContributorsOutput {
  repo: string;
  path: string;
  rev: string;
  totalLines: number;
  files: number;
  results: { author: string; email: string; lines: number; share: number; commits: number; lastChanged: string }[];
  truncated: boolean;
}

const SYMLINK = "120000";

export const contributorsQuery = defineQuery({
  name: "contributors",
  summary: "Who wrote the lines that exist now, under PATH",
  description:
    "Ownership of the code as it is now: blames every text file under PATH (a file or folder; default the whole repository) and sums the surviving lines per author, with their share, how many of their commits still own lines, and when they last changed one. Use to find who knows a piece of code or whom to ask for review, instead of `git blame` over many files or `git shortlog`.",
  args: {
    path: { type: "string", positional: true, description: "A file or folder (default: the whole repository)." },
    limit: { type: "integer", default: 20, min: 1, max: 1000, short: "n", description: "At most this many authors (default 20)." },
    ignoreRevs: { type: "boolean", default: true, description: "Honour .git-blame-ignore-revs at the repository root (CLI: --no-ignore-revs)." },
  },
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      totalLines: z.number().int(),
      files: z.number().int(),
      results: z.array(z.object({ author: z.string(), email: z.string(), lines: z.number().int(), share: z.number(), commits: z.number().int(), lastChanged: z.string() })),
      truncated: z.boolean(),
    }),
  async run(ctx, input): Promise<ContributorsOutput> {
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
  },
});
