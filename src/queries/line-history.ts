/** history -L: how a range of lines (or a function) evolved, as `git log -L` tells it; arguments and shape beside history's. */
import type { z as Zod } from "zod";
import type { Args } from "./define.ts";
import type { HistoryStops } from "./history-stops.ts";

export interface LineHistoryCommit {
  sha: string;
  author: string;
  time: string;
  subject: string;
  range: [number, number];
  diff: string;
  /** A shallow clone's boundary commit: git shows the lines added there against nothing; they may be older. */
  boundary?: true;
}

export interface LineHistoryOutput {
  repo: string;
  path: string;
  rev: string;
  range: [number, number];
  commits: LineHistoryCommit[];
  truncated: boolean;
  /** The file on disk differs from HEAD's: range is in its lines, headRange the HEAD lines git log -L followed. */
  worktree?: true;
  headRange?: [number, number];
  /** Lines of the range not committed yet; absent when none. */
  uncommitted?: [number, number][];
  historyStops?: HistoryStops;
}

export const LINE_HISTORY_ARGS = {
  // One argument in git's own -L syntax: four (startLine, endLine, function, …) cost an agent 200 more bytes on every turn.
  lines: { type: "string", short: "L", description: 'Line history, as git log -L: "A,B" (lines on disk) or ":func".', agent: '"A,B" (lines on disk) or ":func": git log -L.' },
  diffLines: { type: "integer", default: 40, min: 1, description: "With lines: diff lines per commit (default 40).", agent: "With lines: diff lines per commit." },
} as const satisfies Args;

/** True when a history question asks for lines rather than the whole file. */
export function asksForLines(input: { lines?: string }): boolean {
  return input.lines !== undefined;
}

/** A commit of a line history, for history's output schema. */
export function lineHistoryCommit(z: typeof Zod) {
  return z.object({ sha: z.string(), author: z.string(), time: z.string(), subject: z.string(), range: z.tuple([z.number().int(), z.number().int()]), diff: z.string(), boundary: z.literal(true).optional() });
}
