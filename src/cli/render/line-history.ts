/** Human rendering of history -L: each commit, its range, and its hunk coloured like git's. */
import type { LineHistoryOutput } from "../../queries/line-history.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { lineSpan } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderLineHistory(r: LineHistoryOutput & { continue?: string }, s: Style, w: Words): string {
  const span = (x: [number, number]) => lineSpan(x[0], x[1]);
  const spans = (xs: [number, number][]) => (xs.length === 1 ? span(xs[0]!) : `lines ${xs.map((x) => (x[0] === x[1] ? `${x[0]}` : `${x[0]}-${x[1]}`)).join(", ")}`);
  const notCommitted = r.uncommitted ? `${s.yellow("not committed")} ${s.dim(spans(r.uncommitted))}` : undefined;
  if (r.commits.length === 0) return [`No commit changed ${span(r.range)} of ${r.path}${r.worktree ? " on disk" : ""}.`, ...(notCommitted ? [notCommitted] : [])].join("\n");
  const out: string[] = [];
  // On disk the asked lines are the file's as it is now; git log -L followed their place in HEAD.
  if (r.worktree && r.headRange) out.push(s.dim(`${span(r.range)} on disk ${r.range[0] === r.range[1] ? "is" : "are"} HEAD's ${span(r.headRange)}`));
  if (notCommitted) out.push(notCommitted);
  for (const c of r.commits) {
    out.push(table([[s.yellow(c.sha), s.dim(day(c.time)), c.author, s.dim(`${c.range[0]}-${c.range[1]}`), c.subject]])[0]!);
    // A merge git lists without hunks has no diff to show.
    if (c.diff === "") continue;
    for (const l of c.diff.split("\n")) out.push("    " + (l.startsWith("+") ? s.green(l) : l.startsWith("-") ? s.red(l) : l.startsWith("@@") ? s.cyan(l) : l));
  }
  out.push(...moreLine(w, "more commits", r, ["limit", r.commits.length * 2]).map(s.dim));
  return out.join("\n");
}
