/** Human rendering of owners. */
import type { OwnersOutput } from "../../queries/owners.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";

export function renderOwners(r: OwnersOutput, s: Style): string {
  const who = r.truckAuthors.map((a) => a.author).join(", ");
  const head = s.dim(`${r.lines} lines in ${r.files} files${r.path ? ` under ${r.path}` : ""}; truck factor ${r.truckFactor ?? "unknown"}${r.beforeHistory ? `; ${r.beforeHistory} lines from before this clone's history` : ""}${who ? ` (${who})` : ""}`);
  const leftOut = (r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`));
  if (r.files === 0) return [head, "No files.", ...leftOut].join("\n");
  const people = r.authors.map((a) => `${String(a.lines).padStart(7)} ${`${Math.round(a.share * 100)}%`.padStart(4)}  ${a.author} <${a.email}>`);
  const out = [head, ...people];
  if (!r.results) return [...out, ...leftOut, ...(r.truncated ? [s.dim("… more people: lore contributors")] : [])].join("\n");
  const rows = [
    ["lines", "files", "main", "share", "authors", "path"].map(s.dim),
    ...r.results.map((x) => [String(x.lines), String(x.files), x.main ? x.main.author : "-", x.main ? `${Math.round(x.main.share * 100)}%${x.island ? " island" : ""}` : "", String(x.authors), x.path]),
  ];
  return [...out, ...(r.results.length ? table(rows, new Set([0, 1, 4])) : []), ...leftOut, ...(r.truncated ? [s.dim("… more rows: raise -n")] : [])].join("\n");
}
