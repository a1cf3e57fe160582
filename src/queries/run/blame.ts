/** How blame is answered: the cached blame of the file, cut to the range, in the compact hunk form. */
import { familyFor, provenanceOf, tupleWithProvenance } from "./provenance.ts";
import { LoreError } from "../../errors.ts";
import type { BlameHunk as BlameHunkRow } from "../../git/records.ts";
import type { BLAME_ARGS, BlameHunk, BlameOutput } from "../blame.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { CachedBlame } from "../../store/blame-store.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { TreeEntry } from "../../git/records.ts";
import { withBlameAgents } from "../blame-agents.ts";
import { blameFile } from "./blame-file.ts";
import { blamePrefix, rangeToWatch } from "./blame-partial.ts";
import { diskBlame, diskRows, type DiskBlame, type DiskRow } from "./disk-blame.ts";
import { fileAt, iso, lineRange, repoPath, shortSha } from "./common.ts";
import { checkedFunction, functionAt, functionOnDisk } from "./function-range.ts";
import { stopsField } from "./history-stops.ts";

/**
 * The stored hunks cut to a..b as [start, end, sha(, origPath, origStart)]: consecutive lines of
 * one commit from the file itself form one hunk (git splits them where the old line numbers jump,
 * which the answer does not carry); lines from another file keep git's hunks and their origin.
 */
export function compactHunks(rows: readonly (BlameHunkRow | DiskRow)[], path: string, a: number, b: number): BlameHunk[] {
  const out: BlameHunk[] = [];
  for (const h of rows) {
    const start = Math.max(h.start, a);
    const end = Math.min(h.end, b);
    const sha = h.sha === null ? null : shortSha(h.sha);
    const last = out[out.length - 1];
    if (h.sha === null || h.origPath === path) {
      if (last && last.length === 3 && last[2] === sha && last[1] + 1 === start) last[1] = end;
      else out.push([start, end, sha]);
    } else out.push([start, end, sha!, h.origPath, h.origStart + (start - h.start)]);
  }
  return out;
}

export async function run(ctx: QueryContext, asked: Input<typeof BLAME_ARGS>): Promise<BlameOutput> {
  const path0 = repoPath(ctx, asked.path);
  let input = asked;
  if (asked.function !== undefined && (asked.startLine !== undefined || asked.endLine !== undefined)) throw new LoreError("BAD_RANGE", "Give either a function (-L :NAME) or a line range (-L A,B), not both.");
  const spec = asked.function === undefined ? undefined : checkedFunction(asked.function.startsWith(":") ? asked.function : `:${asked.function}`);
  const onDisk = await diskBlame(ctx, asked.until, path0, asked.ignoreRevs);
  // A function's lines where git blame -L :NAME finds them: in the file on disk when it differs from HEAD's, else in the commit's version.
  const fn = async (rev: string) => (spec === undefined ? undefined : onDisk ? functionOnDisk(ctx, rev, path0, spec) : functionAt(ctx, rev, path0, spec));
  if (onDisk) {
    const range = await fn(onDisk.scope.commit);
    if (range) input = { ...asked, startLine: range[0], endLine: range[1] };
    return blameOnDisk(ctx, input, path0, onDisk);
  }
  const scope = await ctx.index.scope(asked.until);
  const range = await fn(scope.commit);
  if (range) input = { ...asked, startLine: range[0], endLine: range[1] };
  const path = path0;
  const entry = await fileAt(ctx, scope, path);
  const cached = await blameFile(ctx, scope, entry, input.ignoreRevs, await watchFor(ctx, scope, entry, input));
  if (cached.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to blame. Use history for its changes.`);
  if (cached.lines === 0 && input.startLine === undefined && input.endLine === undefined)
    return { repo: ctx.index.repo.root, path, rev: scope.commit, lines: 0, range: [0, 0], hunks: [], commits: {} };
  const [a, b] = lineRange(input.startLine, input.endLine, cached.lines, path);
  const rows = ctx.index.store.blame.hunks(cached.id, a, b);
  const answer: BlameOutput = { repo: ctx.index.repo.root, path, rev: scope.commit, lines: cached.lines, range: [a, b], hunks: compactHunks(rows, path, a, b), commits: {} };
  return withCommits(ctx, answer, rows, cached);
}

/** With a deadline, a file not blamed yet: what git attributes is watched, for a partial answer. */
async function watchFor(ctx: QueryContext, scope: Scope, entry: TreeEntry, input: Input<typeof BLAME_ARGS>) {
  const w = await rangeToWatch(ctx, scope, entry, input);
  return w && blamePrefix(w.work, { repo: ctx.index.repo.root, path: entry.path, rev: scope.commit, lines: w.lines, range: [w.a, w.b], commits: {} }, w.a, w.b, (sha) => provenanceOf(ctx, sha, familyFor(ctx, entry.path)));
}

/** The commits table (each commit once), the agents' lines, the boundary commits of the rows, and where history stops if a line's commit is the clone's boundary. */
async function withCommits(ctx: QueryContext, answer: BlameOutput, rows: readonly (BlameHunkRow | DiskRow)[], cached: CachedBlame | null): Promise<BlameOutput> {
  const boundary: string[] = [];
  const shas = rows.flatMap((h) => (h.sha === null ? [] : [h.sha]));
  const family = familyFor(ctx, answer.path);
  for (const [sha, c] of ctx.index.store.blame.commits(shas)) {
    answer.commits[shortSha(sha)] = tupleWithProvenance(ctx, [c.author, iso(c.time), c.subject] as [string, string, string], sha, family);
    if (cached?.boundary.has(sha)) boundary.push(shortSha(sha));
  }
  if (boundary.length) answer.boundary = boundary;
  return Object.assign(withBlameAgents(answer), await stopsField(ctx, shas, true));
}

/** Blame of the file on disk (it differs from HEAD's): its line numbers, uncommitted lines without a commit, HEAD's blame for the rest. */
function blameOnDisk(ctx: QueryContext, input: Input<typeof BLAME_ARGS>, path: string, d: DiskBlame): Promise<BlameOutput> | BlameOutput {
  if (d.cached?.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to blame. Use history for its changes.`);
  const lines = d.view.lines;
  const base = { repo: ctx.index.repo.root, path, rev: d.scope.commit, worktree: true as const };
  if (lines === 0 && input.startLine === undefined && input.endLine === undefined) return { ...base, lines: 0, range: [0, 0], hunks: [], commits: {} };
  const [a, b] = lineRange(input.startLine, input.endLine, lines, path);
  const rows = diskRows(ctx, d, a, b);
  return withCommits(ctx, { repo: base.repo, path, rev: base.rev, lines, range: [a, b], hunks: compactHunks(rows, path, a, b), commits: {}, worktree: true }, rows, d.cached);
}
