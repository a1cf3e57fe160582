/** Human rendering of intent: each commit's full message and the lines it owns. */
import type { IntentOutput } from "../../queries/intent.ts";
import type { Style } from "../style.ts";
import { day } from "../table.ts";

export function renderIntent(r: IntentOutput, s: Style): string {
  const out: string[] = [s.bold(`${r.path}`) + s.dim(` lines ${r.range[0]}-${r.range[1]}${r.worktree ? " on disk (line numbers are the file's as it is now, not HEAD's)" : ""}`)];
  if (r.uncommitted) out.push("", `${s.yellow("not committed")} ${s.dim("lines " + r.uncommitted.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", "))}`);
  if (r.beforeHistory) out.push("", `${s.yellow("from before this clone's history")} ${s.dim("lines " + r.beforeHistory.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ") + ": the commit that wrote them is not here")}`);
  for (const c of r.commits) {
    const lines = c.lines.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
    out.push("", `${s.yellow(c.sha)} ${c.author} ${s.dim(day(c.time))} ${s.dim("lines " + lines)}`);
    out.push(...c.message.split("\n").map((l) => "    " + l));
    // filesTotal counts the file itself, which files leaves out.
    const more = c.filesTotal - c.files.length - 1;
    if (c.files.length) out.push(s.dim(`    also changed: ${c.files.join(", ")}${more > 0 ? ` (+${more} more)` : ""}`));
  }
  return out.join("\n");
}
