/** Human rendering of hotspots. */
import type { HotspotsOutput } from "../../queries/hotspots.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderHotspots(r: HotspotsOutput & { continue?: string }, s: Style, w: Words): string {
  const head = s.dim(`the last ${r.window.commits === 1 ? "commit" : plural(r.window.commits, "commit")}${r.window.since ? ` since ${r.window.since.slice(0, 10)}` : ""}${r.path ? ` under ${r.path}/` : ""}; score = commits × log10(10 + lines); * = above the knee of the change curve`);
  if (r.results.length === 0) return `${head}\nNo file changed in that window.`;
  const all = w.set("all", true);
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
  return [head, ...table(rows, new Set([0, 1, 3, 4, 5])), ...moreLine(w, "more files", r, ["limit", r.results.length * 2], all ? `lockfiles, generated and vendored files: ${all}` : undefined).map(s.dim)].join("\n");
}
