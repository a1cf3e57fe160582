/** How blame is answered: the cached blame of the file, cut to the range, in the compact hunk form. */
import { LoreError } from "../../errors.ts";
import type { BlameHunk as BlameHunkRow } from "../../git/records.ts";
import type { BLAME_ARGS, BlameHunk, BlameOutput } from "../blame.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { blameFile } from "./blame-file.ts";
import { fileAt, iso, lineRange, repoPath, shortSha } from "./common.ts";

/**
 * The stored hunks cut to a..b as [start, end, sha(, origPath, origStart)]: consecutive lines of
 * one commit from the file itself form one hunk (git splits them where the old line numbers jump,
 * which the answer does not carry); lines from another file keep git's hunks and their origin.
 */
export function compactHunks(rows: BlameHunkRow[], path: string, a: number, b: number): BlameHunk[] {
  const out: BlameHunk[] = [];
  for (const h of rows) {
    const start = Math.max(h.start, a);
    const end = Math.min(h.end, b);
    const sha = shortSha(h.sha);
    const last = out[out.length - 1];
    if (h.origPath === path) {
      if (last && last.length === 3 && last[2] === sha && last[1] + 1 === start) last[1] = end;
      else out.push([start, end, sha]);
    } else out.push([start, end, sha, h.origPath, h.origStart + (start - h.start)]);
  }
  return out;
}

export async function run(ctx: QueryContext, input: Input<typeof BLAME_ARGS>): Promise<BlameOutput> {
  const scope = await ctx.index.scope(input.until);
  const path = repoPath(ctx, input.path);
  const entry = await fileAt(ctx, scope, path);
  const cached = await blameFile(ctx, scope, entry, input.ignoreRevs);
  if (cached.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to blame. Use history for its changes.`);
  if (cached.lines === 0 && input.startLine === undefined && input.endLine === undefined)
    return { repo: ctx.index.repo.root, path, rev: scope.commit, lines: 0, range: [0, 0], hunks: [], commits: {} };
  const [a, b] = lineRange(input.startLine, input.endLine, cached.lines, path);
  const rows = ctx.index.store.blame.hunks(cached.id, a, b);
  const commits: BlameOutput["commits"] = {};
  const boundary: string[] = [];
  for (const [sha, c] of ctx.index.store.blame.commits(rows.map((h) => h.sha))) {
    commits[shortSha(sha)] = [c.author, iso(c.time), c.subject];
    if (cached.boundary.has(sha)) boundary.push(shortSha(sha));
  }
  const answer: BlameOutput = { repo: ctx.index.repo.root, path, rev: scope.commit, lines: cached.lines, range: [a, b], hunks: compactHunks(rows, path, a, b), commits };
  if (boundary.length) answer.boundary = boundary;
  return answer;
}
