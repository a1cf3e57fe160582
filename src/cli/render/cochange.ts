/** Human rendering of cochange: the files, how often, how strongly. */
import type { CochangeOutput } from "../../queries/cochange.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";

export function renderCochange(r: CochangeOutput, s: Style): string {
  const head = s.dim(`${r.commits} of the last ${r.window.commits} commits${r.window.since ? ` since ${r.window.since.slice(0, 10)}` : ""} touched ${r.path} (commits with more than ${r.window.maxFiles} files left out)`);
  if (r.results.length === 0) return `${head}\nNo other file changed with it.`;
  const rows = [["together", "confidence", "jaccard", "file"].map(s.dim), ...r.results.map((x) => [String(x.count), `${Math.round(x.confidence * 100)}%`, x.jaccard.toFixed(2), x.path])];
  return [head, ...table(rows, new Set([0, 1, 2])), ...(r.truncated ? [s.dim("… more files: raise -n")] : [])].join("\n");
}
