/** Human rendering of intent: each commit's full message and the lines it owns. */
import type { IntentOutput } from "../../queries/intent.ts";
import type { Style } from "../style.ts";
import { day, shortSha } from "../table.ts";

export function renderIntent(r: IntentOutput, s: Style): string {
  const out: string[] = [s.bold(`${r.path}`) + s.dim(` lines ${r.range[0]}-${r.range[1]}`)];
  for (const c of r.commits) {
    const lines = c.lines.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
    out.push("", `${s.yellow(shortSha(c.sha))} ${c.author} ${s.dim(`<${c.email}> ${day(c.time)}`)} ${s.dim("lines " + lines)}`);
    out.push(...c.message.split("\n").map((l) => "    " + l));
    const others = c.files.filter((f) => f !== r.path);
    if (others.length) out.push(s.dim(`    also changed: ${others.join(", ")}${c.filesTotal > c.files.length ? ` (+${c.filesTotal - c.files.length} more)` : ""}`));
  }
  return out.join("\n");
}
