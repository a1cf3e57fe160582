/** One line telling the agent how to get the rest of an answer that was cut short. */
import type { Capped } from "./cap.ts";

/** A file's page ended at line `end`: short, as a long file is read a page a call and this line comes with every page. */
const moreLines = (lines: number, end: number) => `… ${lines - end} more lines from startLine ${end + 1}`;

/** The hint for a cut answer, or undefined when the whole answer is there (a cut list says its continue token itself). */
export function moreHint(name: string, capped: Capped): string | undefined {
  const r = capped.result;
  if (capped.cut) return moreLines(r.lines as number, (r.range as [number, number])[0] + capped.cut.kept - 1);
  if (typeof r.continue === "string" || r.truncated !== true) return undefined;
  if (name === "show" && typeof r.text === "string") return moreLines(r.lines as number, (r.range as [number, number])[1]);
  if (name === "git" || name === "changes") return "Output cut short; narrow it (paths, a shorter range, -n).";
  return undefined;
}
