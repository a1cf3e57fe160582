/** history -L: how a range of lines (or a function) evolved, as `git log -L` tells it; arguments and shape beside history's. */
import type { z as Zod } from "zod";
import type { Args } from "./define.ts";

export interface LineHistoryCommit {
  sha: string;
  author: string;
  time: string;
  subject: string;
  range: [number, number];
  diff: string;
}

export interface LineHistoryOutput {
  repo: string;
  path: string;
  rev: string;
  range: [number, number];
  commits: LineHistoryCommit[];
  truncated: boolean;
}

export const LINE_HISTORY_ARGS = {
  startLine: { type: "integer", min: 1, description: "History of lines (git log -L) from this one. CLI: -L START,END or -L :NAME." },
  endLine: { type: "integer", min: 1, description: "To this line." },
  function: { type: "string", description: "Or of a function (-L :NAME)." },
  diffLines: { type: "integer", default: 40, min: 1, description: "Diff lines per commit." },
} as const satisfies Args;

/** True when a history question asks for lines rather than the whole file. */
export function asksForLines(input: { startLine?: number; endLine?: number; function?: string }): boolean {
  return input.startLine !== undefined || input.endLine !== undefined || input.function !== undefined;
}

/** A commit of a line history, for history's output schema. */
export function lineHistoryCommit(z: typeof Zod) {
  return z.object({ sha: z.string(), author: z.string(), time: z.string(), subject: z.string(), range: z.tuple([z.number().int(), z.number().int()]), diff: z.string() });
}
