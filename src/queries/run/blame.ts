/** How blame is answered: the cached blame of the file, cut to the range. */
import { LoreError } from "../../errors.ts";
import type { BLAME_ARGS, BlameOutput } from "../blame.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { blameFile } from "./blame-file.ts";
import { fileAt, iso, lineRange, repoPath } from "./common.ts";

export async function run(ctx: QueryContext, input: Input<typeof BLAME_ARGS>): Promise<BlameOutput> {
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
}
