/** Human rendering of hotspots. */
import type { HotspotsOutput } from "../../queries/hotspots.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";

export function renderHotspots(r: HotspotsOutput, s: Style): string {
  const head = s.dim(`the last ${r.window.commits} commits${r.window.since ? ` since ${r.window.since.slice(0, 10)}` : ""}${r.path ? ` under ${r.path}/` : ""}; score = commits × log10(10 + lines); * = above the knee of the change curve`);
  if (r.results.length === 0) return `${head}\nNo file changed in that window.`;
  const rows = [
    ["score", "commits", "+/-", "authors", "lines", "complexity", "last", "file"].map(s.dim),
    ...r.results.map((x) => [
      x.score.toFixed(1),
      String(x.commits),
      `${s.green("+" + x.additions)} ${s.red("-" + x.deletions)}`,
      String(x.authors),
      String(x.lines),
      String(x.complexity),
      day(x.lastChanged),
      x.hotspot ? `${x.path} *` : x.path,
    ]),
  ];
  return [head, ...table(rows, new Set([0, 1, 3, 4, 5])), ...(r.truncated ? [s.dim("… more files: raise -n (lockfiles, generated and vendored files: --all)")] : [])].join("\n");
}
