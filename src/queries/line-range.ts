/** A line range as a question takes it (-L START,END on the command line, a question's own L argument): the rule the CLI and the questions share. */
import { LoreError } from "../errors.ts";

/**
 * Parses -L the way git blame does: "10,20"; "10" or "10," (to the end of the file); ",20"
 * (from the first line); "10,+5" (five lines from 10); "10,-5" (five lines up to 10).
 */
export function parseRange(text: string): { startLine: number; endLine?: number } {
  const m = /^(\d*)(?:,([+-]?)(\d*))?$/.exec(text.trim());
  const start = m?.[1] ? Number(m[1]) : undefined;
  const count = m?.[3] ? Number(m[3]) : undefined;
  if (!m || (start === undefined && count === undefined) || (m[2] && (start === undefined || count === undefined)))
    throw new LoreError("BAD_RANGE", `-L takes START,END line numbers (like -L 10,20, -L 10, -L ,20 or -L 10,+5), not "${text}".`);
  if (count === undefined) return { startLine: start! };
  if (m[2] === "+") return { startLine: start!, endLine: start! + count - 1 };
  if (m[2] === "-") return { startLine: Math.max(1, start! - count + 1), endLine: start! };
  return { startLine: start ?? 1, endLine: count };
}
