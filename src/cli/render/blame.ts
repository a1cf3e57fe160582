/** Human rendering of blame: one line per hunk with its commit. */
import type { BlameOutput } from "../../queries/blame.ts";
import type { Style } from "../style.ts";
import { day, shortSha, table } from "../table.ts";

export function renderBlame(r: BlameOutput, s: Style): string {
  if (r.hunks.length === 0) return `${r.path} is empty.`;
  const rows = r.hunks.map((h) => {
    const c = r.commits[h.sha]!;
    const lines = h.start === h.end ? `${h.start}` : `${h.start}-${h.end}`;
    const moved = h.origPath !== r.path ? s.dim(` (from ${h.origPath})`) : "";
    return [s.dim(lines), s.yellow((c.boundary ? "^" : "") + shortSha(h.sha)), c.author, s.dim(day(c.time)), c.subject + moved];
  });
  return [s.bold(`${r.path}`) + s.dim(` lines ${r.range[0]}-${r.range[1]} of ${r.lines} at ${shortSha(r.rev)}`), ...table(rows, new Set([0]))].join("\n");
}
