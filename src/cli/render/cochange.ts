/** Human rendering of cochange: the files in their ranking's order with its score, how often, how strongly, and with which input. */
import type { CochangeOutput } from "../../queries/cochange.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderCochange(r: CochangeOutput & { continue?: string }, s: Style, w: Words): string {
  const what = r.paths.length === 1 ? r.paths[0]! : plural(r.paths.length, "file");
  if (r.note) return [...(r.paths.length ? [s.dim(`asked about ${r.paths.join(", ")}`)] : []), r.note].join("\n");
  const per = r.window.perFile ? `the newest ${plural(r.window.perFile, "commit")} of each file` : "every commit";
  const head = s.dim(
    `${plural(r.commits, "commit")} touched ${what} (${per}${r.window.since ? ` since ${r.window.since.slice(0, 10)}` : ""}, back to ${r.window.from?.slice(0, 10)}; commits of more than ${plural(r.window.maxFiles, "file")} left out)`,
  );
  if (r.results.length === 0) return `${head}\nNo other file changed with ${r.paths.length === 1 ? "it" : "them"}.`;
  const multi = r.results.some((x) => x.with);
  const rows = [
    // The rows are ranked by score (recent and small shared commits weigh more), said first: "together" alone would look unsorted.
    ["score", "together", "confidence", "jaccard", "file", ...(multi ? ["with"] : [])].map(s.dim),
    ...r.results.map((x) => [x.score.toFixed(2), String(x.count), `${Math.round(x.confidence * 100)}%`, x.jaccard.toFixed(2), x.path, ...(multi ? [s.dim(x.with!.join(", "))] : [])]),
  ];
  return [head, ...table(rows, new Set([0, 1, 2, 3])), ...moreLine(w, "more files", r, ["limit", r.results.length * 2]).map(s.dim)].join("\n");
}
