/** Human rendering of cochange: the files in their ranking's order with its score, how often, how strongly, and with which input. */
import type { CochangeOutput } from "../../queries/cochange.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";

export function renderCochange(r: CochangeOutput, s: Style): string {
  const what = r.paths.length === 1 ? r.paths[0]! : `${r.paths.length} files`;
  if (r.note) return [...(r.paths.length ? [s.dim(`asked about ${r.paths.join(", ")}`)] : []), r.note].join("\n");
  const per = r.window.perFile ? `the newest ${r.window.perFile} commits of each file` : "every commit";
  const head = s.dim(
    `${r.commits} commits touched ${what} (${per}${r.window.since ? ` since ${r.window.since.slice(0, 10)}` : ""}, back to ${r.window.from?.slice(0, 10)}; commits of more than ${r.window.maxFiles} files left out)`,
  );
  if (r.results.length === 0) return `${head}\nNo other file changed with ${r.paths.length === 1 ? "it" : "them"}.`;
  const multi = r.results.some((x) => x.with);
  const rows = [
    // The rows are ranked by score (recent and small shared commits weigh more), said first: "together" alone would look unsorted.
    ["score", "together", "confidence", "jaccard", "file", ...(multi ? ["with"] : [])].map(s.dim),
    ...r.results.map((x) => [x.score.toFixed(2), String(x.count), `${Math.round(x.confidence * 100)}%`, x.jaccard.toFixed(2), x.path, ...(multi ? [s.dim(x.with!.join(", "))] : [])]),
  ];
  return [head, ...table(rows, new Set([0, 1, 2, 3])), ...(r.truncated ? [s.dim("… more files: raise -n")] : [])].join("\n");
}
