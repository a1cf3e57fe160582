/** Human rendering of owners. */
import type { OwnersOutput } from "../../queries/owners.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";

export function renderOwners(r: OwnersOutput, s: Style): string {
  const who = r.truckAuthors.map((a) => a.author).join(", ");
  const head = s.dim(`${r.lines} lines in ${r.files} files${r.path ? ` under ${r.path}` : ""}; truck factor ${r.truckFactor}${who ? ` (${who})` : ""}`);
  if (r.results.length === 0) return [head, "No files.", ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`))].join("\n");
  const rows = [
    ["lines", "files", "main", "share", "authors", "path"].map(s.dim),
    ...r.results.map((x) => [String(x.lines), String(x.files), x.main ? x.main.author : "-", x.main ? `${Math.round(x.main.share * 100)}%${x.island ? " island" : ""}` : "", String(x.authors), x.path]),
  ];
  return [head, ...table(rows, new Set([0, 1, 4])), ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)), ...(r.truncated ? [s.dim("… more rows: raise -n")] : [])].join("\n");
}
