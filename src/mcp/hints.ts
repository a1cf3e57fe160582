/** One line telling the agent how to get the rest of a file's text that was cut short. */
import type { Capped } from "./cap.ts";
import { plural } from "../plural.ts";

/** A file's page ended at line `end`: short, as a long file is read a page a call and this line comes with every page. */
const moreLines = (lines: number, end: number) => `… ${plural(lines - end, "more line", "more lines")} from startLine ${end + 1}`;

/** The hint for a file's text cut short (show REV:PATH), or undefined (a cut list says its continue token itself, and call-tool.ts a cut output). */
export function moreHint(capped: Capped): string | undefined {
  const r = capped.result;
  if (capped.cut) return moreLines(r.lines as number, (r.range as [number, number])[0] + capped.cut.kept - 1);
  if (typeof r.continue === "string" || r.truncated !== true) return undefined;
  if (typeof r.text === "string") return moreLines(r.lines as number, (r.range as [number, number])[1]);
  return undefined;
}
