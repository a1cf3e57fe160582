/** blame: who last changed each line of a file, and in which commit. */
import { LoreError } from "../errors.ts";
import { blameFile } from "./blame-file.ts";
import { fileAt, iso, lineRange, repoPath } from "./common.ts";
import { defineQuery } from "./define.ts";

export interface BlameOutput {
  repo: string;
  path: string;
  rev: string;
  lines: number;
  range: [number, number];
  hunks: { start: number; end: number; sha: string; origPath: string; origStart: number }[];
  commits: Record<string, { author: string; email: string; time: string; subject: string; boundary?: boolean }>;
}

export const blameQuery = defineQuery({
  name: "blame",
  summary: "Who last changed each line of a file, and in which commit",
  description:
    "Line-by-line authorship of a file (git blame), from lore's cache: hunks of consecutive lines with the commit that last changed them, each commit listed once with author, time and subject. Use instead of `git blame`; narrow with startLine/endLine. For the reason behind lines (full commit messages), use lore_intent.",
  args: {
    path: { type: "string", required: true, positional: true, description: "File path, relative to the repository root (or absolute)." },
    startLine: { type: "integer", min: 1, description: "First line of the range (1-based; default 1). CLI: -L START,END." },
    endLine: { type: "integer", min: 1, description: "Last line of the range, inclusive (default: the last line)." },
    ignoreRevs: { type: "boolean", default: true, description: "Honour .git-blame-ignore-revs at the repository root (CLI: --no-ignore-revs turns it off)." },
  },
  needsHistory: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      lines: z.number().int(),
      range: z.tuple([z.number().int(), z.number().int()]),
      hunks: z.array(z.object({ start: z.number().int(), end: z.number().int(), sha: z.string(), origPath: z.string(), origStart: z.number().int() })),
      commits: z.record(z.string(), z.object({ author: z.string(), email: z.string(), time: z.string(), subject: z.string(), boundary: z.boolean().optional() })),
    }),
  async run(ctx, input): Promise<BlameOutput> {
    const scope = await ctx.index.scope(input.until);
    const path = repoPath(ctx, input.path);
    const entry = await fileAt(ctx, scope, path);
    const cached = await blameFile(ctx, scope, entry, input.ignoreRevs);
    if (cached.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to blame. Use history for its changes.`);
    if (cached.lines === 0 && input.startLine === undefined && input.endLine === undefined)
      return { repo: ctx.index.repo.root, path, rev: scope.commit, lines: 0, range: [0, 0], hunks: [], commits: {} };
    const [a, b] = lineRange(input.startLine, input.endLine, cached.lines, path);
    const hunks = ctx.index.store.blame.hunks(cached.id, a, b).map((h) => {
      const start = Math.max(h.start, a);
      return { start, end: Math.min(h.end, b), sha: h.sha, origPath: h.origPath, origStart: h.origStart + (start - h.start) };
    });
    const commits: BlameOutput["commits"] = {};
    for (const [sha, c] of ctx.index.store.blame.commits(hunks.map((h) => h.sha))) {
      commits[sha] = { author: c.author, email: c.email, time: iso(c.time), subject: c.subject };
      if (cached.boundary.has(sha)) commits[sha]!.boundary = true;
    }
    return { repo: ctx.index.repo.root, path, rev: scope.commit, lines: cached.lines, range: [a, b], hunks, commits };
  },
});
