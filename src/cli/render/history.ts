/** Human rendering of history: one line per commit. */
import type { HistoryOutput } from "../../queries/history.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { moreLine, type Words } from "./words.ts";
import { provenanceText } from "./provenance.ts";

export function renderHistory(r: HistoryOutput & { continue?: string }, s: Style, w: Words): string {
  if (r.commits.length === 0) return `No commits changed ${r.path}.`;
  const rows = r.commits.map((c) => {
    const churn = c.additions === null ? s.dim(c.unreadable ? "unreadable" : "binary") : `${s.green("+" + c.additions)} ${s.red("-" + c.deletions)}`;
    const renamed = c.oldPath ? s.dim(` (${c.status === "C" ? "copied" : "renamed"} from ${c.oldPath})`) : c.path ? s.dim(` (as ${c.path})`) : "";
    return [s.yellow(c.sha), s.dim(day(c.time)), c.author, churn, c.subject + renamed + s.dim(provenanceText(c, c.subject))];
  });
  const more = moreLine(w, "more commits", r, ["limit", r.commits.length * 2]).map(s.dim);
  return [...table(rows), ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)), ...more].join("\n");
}
