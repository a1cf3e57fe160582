/** Human rendering of intent: each commit's full message and the lines it owns. */
import type { IntentOutput } from "../../queries/intent.ts";
import type { Style } from "../style.ts";
import { day } from "../table.ts";
import { lineSpan } from "../../plural.ts";

/** "line 4", "lines 4-9, 12": ranges of lines, said as one line when they are one. */
function spans(ranges: [number, number][]): string {
  if (ranges.length === 1) return lineSpan(ranges[0]![0], ranges[0]![1]);
  return `lines ${ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ")}`;
}

export function renderIntent(r: IntentOutput, s: Style): string {
  const out: string[] = [s.bold(`${r.path}`) + s.dim(` ${lineSpan(r.range[0], r.range[1])}${r.worktree ? " on disk (line numbers are the file's as it is now, not HEAD's)" : ""}`)];
  if (r.uncommitted) out.push("", `${s.yellow("not committed")} ${s.dim(spans(r.uncommitted))}`);
  if (r.beforeHistory) out.push("", `${s.yellow("from before this clone's history")} ${s.dim(spans(r.beforeHistory) + ": the commit that wrote them is not here")}`);
  for (const c of r.commits) {
    out.push("", `${s.yellow(c.sha)} ${c.author} ${s.dim(day(c.time))} ${s.dim(spans(c.lines))}`);
    out.push(...c.message.split("\n").map((l) => "    " + l));
    // filesTotal counts the file itself, which files leaves out.
    const more = c.filesTotal - c.files.length - 1;
    if (c.files.length) out.push(s.dim(`    also changed: ${c.files.join(", ")}${more > 0 ? ` (+${more} more)` : ""}`));
  }
  return out.join("\n");
}
