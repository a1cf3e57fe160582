/** How intent is answered: blame the range, then each commit's full message and the files it touched. */
import { familyFor, withProvenance } from "./provenance.ts";
import { LoreError } from "../../errors.ts";
import { LOG_FORMAT, parseRawLog } from "../../git/parse-log.ts";
import { git } from "../../git/run.ts";
import type { BlameHunk } from "../../git/records.ts";
import { blameFile } from "./blame-file.ts";
import { diskBlame, diskRows, type DiskRow } from "./disk-blame.ts";
import { fileAt, iso, lineRange, repoPath, shortSha } from "./common.ts";
import { checkedFunction, functionAt, functionOnDisk } from "./function-range.ts";
import { blameProgress, rangeToWatch } from "./blame-partial.ts";
import type { QueryContext } from "../context.ts";
import type { INTENT_ARGS, IntentCommit, IntentOutput } from "../intent.ts";
import type { Input } from "../define.ts";
import { boundaryCommit, blameBoundaryOf, historyStops } from "./history-stops.ts";

/** A commit's other files listed unless all are asked for: those nearest the path say most about why. */
const NEAREST_FILES = 5;

/** How far apart two paths are in the tree: the folders from one up to where they meet and down to the other. */
function distance(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let i = 0;
  while (i < x.length - 1 && i < y.length - 1 && x[i] === y[i]) i++;
  return x.length - 1 - i + (y.length - 1 - i);
}

/** The commit's other files, nearest the path first (then in path order), up to NEAREST_FILES unless all are asked for. */
export function nearest(path: string, files: string[], all: boolean): string[] {
  const others = files.filter((f) => f !== path);
  if (all) return others;
  return others
    .map((f) => [distance(path, f), f] as const)
    .sort((p, q) => p[0] - q[0] || (p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0))
    .slice(0, NEAREST_FILES)
    .map(([, f]) => f);
}

interface CommitFacts {
  author: string;
  email: string;
  time: number;
  subject: string;
  message: string;
  files: string[];
}

/** Facts of a commit from the index, or from git for one outside it (a blame boundary in a capped index). */
async function commitFacts(ctx: QueryContext, sha: string): Promise<CommitFacts> {
  const c = ctx.index.store.history.commitBySha(sha);
  if (c) return { author: c.author, email: c.email, time: c.time, subject: c.subject, message: c.message, files: ctx.index.store.history.filesOf(c.id) };
  const rec = parseRawLog(await git(["log", "-1", "--raw", "-z", "-M", "--root", "--no-abbrev", "--no-ext-diff", `--format=${LOG_FORMAT}`, sha, "--"], ctx.index.git))[0];
  if (!rec) throw new LoreError("GIT_FAILED", `git could not show commit ${sha}.`);
  const files = rec.parents.length > 1 ? [] : rec.changes.map((ch) => ch.path).sort();
  return { author: rec.author, email: rec.email, time: rec.time, subject: rec.subject, message: rec.message, files };
}

/** The lines asked: -L A,B as given, or -L :NAME where git blame finds the function (in the version the answer is about). */
async function linesAsked(ctx: QueryContext, input: Input<typeof INTENT_ARGS>, path: string, rev: string, onDisk: boolean): Promise<{ startLine: number; endLine?: number }> {
  if (input.function === undefined) return { startLine: input.startLine!, endLine: input.endLine };
  if (input.startLine !== undefined || input.endLine !== undefined) throw new LoreError("BAD_RANGE", "Give either a function (-L :NAME) or a line range (-L A,B), not both.");
  const spec = checkedFunction(input.function.startsWith(":") ? input.function : `:${input.function}`);
  const [startLine, endLine] = await (onDisk ? functionOnDisk(ctx, rev, path, spec) : functionAt(ctx, rev, path, spec));
  return { startLine, endLine };
}

export async function run(ctx: QueryContext, input: Input<typeof INTENT_ARGS>): Promise<IntentOutput> {
  const path = repoPath(ctx, input.path);
  if (input.function === undefined && input.startLine === undefined) throw new LoreError("BAD_ARGUMENT", "intent needs lines: -L START,END, or -L :NAME for a function's.");
  const onDisk = await diskBlame(ctx, input.until, path, input.ignoreRevs);
  let rev: string;
  let a: number, b: number;
  let rows: readonly (BlameHunk | DiskRow)[];
  if (onDisk) {
    if (onDisk.cached?.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines. Use history for its changes.`);
    rev = onDisk.scope.commit;
    const asked = await linesAsked(ctx, input, path, rev, true);
    [a, b] = lineRange(asked.startLine, asked.endLine, onDisk.view.lines, path);
    rows = diskRows(ctx, onDisk, a, b);
  } else {
    const scope = await ctx.index.scope(input.until);
    const entry = await fileAt(ctx, scope, path);
    // With a deadline: how many of the lines asked git has attributed (the commits are sorted only at the end).
    const w = input.function === undefined ? await rangeToWatch(ctx, scope, entry, input) : undefined;
    const cached = await blameFile(ctx, scope, entry, input.ignoreRevs, w && blameProgress(w.work, w.a, w.b));
    if (cached.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines. Use history for its changes.`);
    rev = scope.commit;
    const asked = await linesAsked(ctx, input, path, rev, false);
    [a, b] = lineRange(asked.startLine, asked.endLine, cached.lines, path);
    rows = ctx.index.store.blame.hunks(cached.id, a, b);
  }
  const bySha = new Map<string | null, [number, number][]>();
  for (const h of rows) {
    const ranges = bySha.get(h.sha) ?? [];
    const start = Math.max(h.start, a);
    const end = Math.min(h.end, b);
    const last = ranges[ranges.length - 1];
    if (last && last[1] + 1 === start) last[1] = end;
    else ranges.push([start, end]);
    bySha.set(h.sha, ranges);
  }
  const commits: IntentCommit[] = [];
  const family = familyFor(ctx, path);
  const uncommitted = bySha.get(null);
  bySha.delete(null);
  // Lines git pins on a shallow clone's boundary commit were written there or before it: its message is not their reason.
  const boundary = await blameBoundaryOf(ctx);
  const before: [number, number][] = [];
  for (const [sha, lines] of bySha as Map<string, [number, number][]>) {
    if (boundaryCommit(boundary, sha)) {
      before.push(...lines);
      continue;
    }
    const f = await commitFacts(ctx, sha);
    commits.push(withProvenance(ctx, { sha: shortSha(sha), author: f.author, time: iso(f.time), message: f.message, lines, files: nearest(path, f.files, input.files === true), filesTotal: f.files.length }, sha, family));
  }
  commits.sort((x, y) => (x.time < y.time ? 1 : x.time > y.time ? -1 : 0));
  const answer: IntentOutput = { repo: ctx.index.repo.root, path, rev, range: [a, b], commits };
  if (onDisk) answer.worktree = true;
  if (uncommitted) answer.uncommitted = uncommitted;
  if (before.length) {
    answer.beforeHistory = joined(before);
    answer.historyStops = historyStops(boundary, bySha.keys());
  }
  return answer;
}

/** Line ranges in order, adjacent ones joined (two boundary commits' lines may meet). */
function joined(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 >= a) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
