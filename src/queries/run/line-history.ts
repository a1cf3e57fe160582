/**
 * How history -L is answered: `git log -L` (a line range or a function), each commit's range and
 * hunks cut per commit; a repeated question comes from a cache keyed like blame's (path + the last
 * commit that changed it + its blob + the question).
 */
import { withinLines } from "./diff-lines.ts";
import { LoreError } from "../../errors.ts";
import { LINE_LOG_FORMAT, parseLineLog, type LineLogCommit } from "../../git/parse-line-log.ts";
import { gitStream } from "../../git/run.ts";
import { lineCounts } from "../../index/line-counts.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { HISTORY_ARGS } from "../history.ts";
import type { LineHistoryOutput } from "../line-history.ts";
import { fileAt, iso, repoPath, shortSha } from "./common.ts";
import { parseRange } from "../line-range.ts";
import type { Scope } from "../../index/repo-index.ts";
import { diskFile, runsIn, type DiskFile, type DiskRun } from "./disk-file.ts";
import { checkedFunction, functionAt, functionOnDisk } from "./function-range.ts";
import { boundaryCommit, boundaryOf, historyStops } from "./history-stops.ts";
import { plural } from "../../plural.ts";

type Cached = Omit<LineHistoryOutput, "repo" | "rev" | "path">;

export async function run(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>): Promise<LineHistoryOutput> {
  const answer = await lines(ctx, input);
  // A shallow clone's boundary commit: git log -L shows the lines added there, against nothing.
  const boundary = await boundaryOf(ctx);
  const reached = answer.commits.filter((c) => boundaryCommit(boundary, c.sha));
  if (reached.length === 0) return answer;
  const commits = answer.commits.map((c) => (reached.includes(c) ? { ...c, boundary: true as const } : c));
  return { ...answer, commits, historyStops: historyStops(boundary, reached.map((c) => c.sha)) };
}

async function lines(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>): Promise<LineHistoryOutput> {
  const scope = await ctx.index.scope(input.until);
  const path = repoPath(ctx, input.path);
  // Line numbers are the file's on disk unless `until` names a commit; so is a function, found where git blame -- PATH finds it.
  if (input.until === undefined) {
    const view = await diskFile(ctx, scope, path);
    if (view) return onDisk(ctx, input, scope, path, view);
  }
  const entry = await fileAt(ctx, scope, path);
  const { spec, range } = await rangeSpec(ctx, input, path, entry.blob);
  // A range of lines is known before git starts: each commit git prints is then sure (a function's range only at the end).
  if (range) ctx.partial?.begin({ repo: ctx.index.repo.root, path, rev: scope.commit, range }, "commits");
  return { repo: ctx.index.repo.root, path, rev: scope.commit, ...(await cachedLineLog(ctx, input, scope, path, entry.blob, spec, range)) };
}

/** git log -L of `path` at the scope's commit, from the cache when asked before. */
async function cachedLineLog(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>, scope: Scope, path: string, blob: string, spec: string, range: [number, number] | undefined): Promise<Cached> {
  const last = scope.atHead ? ctx.index.lastTouch(path) : lastTouchIn(ctx, scope.table, path);
  const key = JSON.stringify([path, last ?? scope.commit, blob, spec, input.diffLines, input.limit]);
  const store = ctx.index.store.search;
  const hit = store.lineHistory(key);
  const body: Cached = hit ? JSON.parse(hit) : await lineLog(ctx, scope.commit, path, spec, range, input.limit, input.diffLines, last);
  if (!hit) store.saveLineHistory(key, JSON.stringify(body));
  return body;
}

/**
 * On-disk lines A..B of a file that differs from HEAD's: the smallest HEAD range covering their
 * committed lines, answered as git log -L of it (headRange); none committed, no commits.
 */
async function onDisk(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>, scope: Scope, path: string, view: DiskFile): Promise<LineHistoryOutput> {
  if (view.headEntry && (await lineCounts(ctx.index, [view.headEntry.blob])).get(view.headEntry.blob) === null)
    throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to follow.`);
  const L = input.lines!.trim();
  const [a, b] = L.startsWith(":") ? await functionOnDisk(ctx, scope.commit, path, checkedFunction(L)) : checkedRange(parseRange(L), view.lines, path);
  const runs = runsIn(view, a, b);
  // git log -L follows HEAD's lines only: lines a merge in progress brought (blame gives them to the
  // merged commit) are not in HEAD's version, so here they are uncommitted, as git diff HEAD says.
  const inHead = (r: DiskRun) => r.head !== null && r.from === undefined;
  const uncommitted: [number, number][] = [];
  for (const r of runs.filter((r) => !inHead(r))) {
    const last = uncommitted[uncommitted.length - 1];
    if (last && last[1] + 1 === r.start) last[1] = r.end;
    else uncommitted.push([r.start, r.end]);
  }
  const committed = runs.filter(inHead);
  const base = { repo: ctx.index.repo.root, path, rev: scope.commit, range: [a, b] as [number, number], worktree: true as const };
  if (committed.length === 0 || !view.headPath || !view.headEntry) return { ...base, commits: [], truncated: false, uncommitted };
  const last = committed[committed.length - 1]!;
  const headRange: [number, number] = [committed[0]!.head!, last.head! + (last.end - last.start)];
  const body = await cachedLineLog(ctx, input, scope, view.headPath, view.headEntry.blob, `${headRange[0]},${headRange[1]}`, headRange);
  return { ...base, commits: body.commits, truncated: body.truncated, headRange, ...(uncommitted.length ? { uncommitted } : {}) };
}

/** A,B as asked (B defaults to the file's end), checked against the file's length. */
function checkedRange(asked: { startLine: number; endLine?: number }, lines: number | undefined, path: string): [number, number] {
  const a = asked.startLine;
  const b = asked.endLine ?? lines ?? a;
  if (a < 1) throw new LoreError("BAD_RANGE", "Line numbers start at 1; ask for -L START,END with 1 <= START <= END.");
  if (b < a) throw new LoreError("BAD_RANGE", `The range ${a},${b} ends before it starts; ask for -L START,END with START <= END.`);
  if (lines === 0) throw new LoreError("BAD_RANGE", `${path} is empty: it has no lines to ask about.`);
  if (lines !== undefined && b > lines) throw new LoreError("BAD_RANGE", `${path} has only ${plural(lines, "line")}; ask for lines within 1,${lines}.`);
  return [a, b];
}

function lastTouchIn(ctx: QueryContext, table: string, path: string): string | undefined {
  const pid = ctx.index.store.history.pathId(path);
  return pid === undefined ? undefined : ctx.index.store.history.lastTouch(table, pid);
}

/** git's -L argument: "A,B" (every form blame -L takes) checked against the file's length, or ":NAME" (its range is git's). */
async function rangeSpec(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>, path: string, blob: string): Promise<{ spec: string; range?: [number, number] }> {
  const L = input.lines!.trim();
  if (L.startsWith(":")) return { spec: checkedFunction(L) };
  const lines = (await lineCounts(ctx.index, [blob])).get(blob);
  if (lines === null) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines to follow.`);
  const [a, b] = checkedRange(parseRange(L), lines, path);
  return { spec: `${a},${b}`, range: [a, b] };
}

async function lineLog(ctx: QueryContext, rev: string, path: string, spec: string, asked: [number, number] | undefined, limit: number, diffLines: number, last: string | undefined): Promise<Cached> {
  let text: string;
  try {
    // git log -L walks long (seconds on a big history): the commits it has printed go out as found.
    text = await lineLogStream(ctx, ["log", `-L${spec}:${path}`, `--format=${LINE_LOG_FORMAT}`, "--no-ext-diff", "--no-textconv", "--no-color", "-n", String(limit + 1), rev], (found, from) => {
      if (asked === undefined) return;
      let carried: [number, number] = asked;
      for (const [i, c] of found.entries()) {
        const own: [number, number] = c.range ?? carried;
        carried = c.before ?? own;
        if (i >= from && i < limit) ctx.partial?.add(commitOut(c, own, diffLines));
      }
    });
  } catch (err) {
    if (err instanceof LoreError && /no match|has only \d+ lines?|invalid line range/i.test(err.message)) throw new LoreError("BAD_RANGE", err.message.replace(/^git \w+ failed: /, ""));
    throw err;
  }
  const found = parseLineLog(text);
  // A function's lines at rev: where the newest commit that changed them put them, unless a later
  // commit changed the file elsewhere (and may have moved them): then git blame -L :NAME says.
  const newest = found[0];
  const range = asked ?? (newest?.range && newest.sha === last ? newest.range : await functionAt(ctx, rev, path, spec));
  // A commit without hunks (a merge git shows) has the lines where the commit listed before it found them in its parent.
  let carried = range;
  const commits = found.slice(0, limit).map((c) => {
    const own = c.range ?? carried;
    carried = c.before ?? own;
    return commitOut(c, own, diffLines);
  });
  return { range, commits, truncated: found.length > limit };
}

function commitOut(c: LineLogCommit, own: [number, number], diffLines: number) {
  const diff = withinLines(c.diff, diffLines).join("\n");
  return { sha: shortSha(c.sha), author: c.author, time: iso(c.time), subject: c.subject, range: own, diff };
}

/**
 * git log -L's output as text, and while it comes, `onCommits` with the commits printed whole so far
 * (each record ends where the next begins), and the progress: how many, back to when.
 */
async function lineLogStream(ctx: QueryContext, args: string[], onCommits: (found: LineLogCommit[], from: number) => void): Promise<string> {
  const chunks: Buffer[] = [];
  let seen = 0;
  await gitStream(args, ctx.index.git, (chunk) => {
    chunks.push(Buffer.from(chunk));
    if (!ctx.partial) return;
    const all = Buffer.concat(chunks);
    // 0x1e starts a record and is one byte of ASCII: decoding up to it never splits a character.
    const whole = parseLineLog(all.subarray(0, all.lastIndexOf(0x1e)).toString("utf8"));
    if (whole.length === seen) return;
    const from = seen;
    seen = whole.length;
    ctx.partial.report({ found: seen, oldest: iso(whole[seen - 1]!.time) });
    onCommits(whole, from);
  });
  return Buffer.concat(chunks).toString("utf8");
}
