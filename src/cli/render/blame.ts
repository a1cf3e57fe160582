/** Human rendering of blame: one line per hunk with its commit, and the lines written with agents when there are some. */
import type { BlameOutput } from "../../queries/blame.ts";
import type { Style } from "../style.ts";
import { day, shortSha, table } from "../table.ts";
import { lineSpan } from "../../plural.ts";
import { agentSharesText, provenanceText } from "./provenance.ts";

export function renderBlame(r: BlameOutput, s: Style): string {
  if (r.hunks.length === 0) return `${r.path} is empty.`;
  const boundary = new Set(r.boundary);
  const rows = r.hunks.map(([start, end, sha, origPath]) => {
    const lines = start === end ? `${start}` : `${start}-${end}`;
    if (sha === null) return [s.dim(lines), s.yellow("not committed"), "", "", ""];
    const [author, time, subject, marks] = r.commits[sha]!;
    const moved = origPath !== undefined ? s.dim(` (from ${origPath})`) : "";
    return [s.dim(lines), s.yellow((boundary.has(sha) ? "^" : "") + sha), author, s.dim(day(time)), subject + moved + s.dim(provenanceText(marks, subject))];
  });
  return [s.bold(`${r.path}`) + s.dim(` ${lineSpan(r.range[0], r.range[1])} of ${r.lines} ${r.worktree ? `on disk (differs from HEAD ${shortSha(r.rev)})` : `at ${shortSha(r.rev)}`}`), ...table(rows, new Set([0])), ...agentSharesText(r.agents).map(s.dim)].join("\n");
}
