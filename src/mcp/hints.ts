/** One line telling the agent how to get the rest of a file its page cut short. */
import type { Capped } from "./cap.ts";
import { plural } from "../plural.ts";

/** A file's page ended at line `end`: short, as a long file is read a page a call and this line comes with every page. */
const moreLines = (lines: number, end: number) => `… ${plural(lines - end, "more line", "more lines")} from startLine ${end + 1}`;

/**
 * The hint for a file's page cut short (show REV:PATH), which this face cut (cap.ts) or the question
 * did; undefined otherwise: every other cut says how to go on in its renderer's one line, in MCP's words.
 */
export function moreHint(name: string, capped: Capped): string | undefined {
  const r = capped.result;
  if (capped.cut) return moreLines(r.lines as number, (r.range as [number, number])[0] + capped.cut.kept - 1);
  if (typeof r.continue === "string" || r.truncated !== true) return undefined;
  if (name === "show" && typeof r.text === "string") return moreLines(r.lines as number, (r.range as [number, number])[1]);
  return undefined;
}
