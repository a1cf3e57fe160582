/** Human rendering of owners. */
import type { OwnersOutput } from "../../queries/owners.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";
import { agentSharesText } from "./provenance.ts";

export function renderOwners(r: OwnersOutput & { continue?: string }, s: Style, w: Words): string {
  const who = r.truckAuthors.map((a) => a.author).join(", ");
  const head = s.dim(`${plural(r.lines, "line")} in ${plural(r.files, "file")}${r.path ? ` under ${r.path}` : ""}; truck factor ${r.truckFactor ?? "unknown"}${r.beforeHistory ? `; ${plural(r.beforeHistory, "line")} from before this clone's history` : ""}${who ? ` (${who})` : ""}`);
  const leftOut = (r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`));
  if (r.files === 0) return [head, "No files.", ...leftOut].join("\n");
  const people = r.authors.map((a) => `${String(a.lines).padStart(7)} ${`${Math.round(a.share * 100)}%`.padStart(4)}  ${a.author} <${a.email}>`);
  const out = [head, ...people, ...agentSharesText(r.agents).map(s.dim), ...declaredText(r, s)];
  if (!r.results) return [...out, ...leftOut, ...(r.truncated ? [s.dim(`… more people: ${w.ask("contributors")}`)] : [])].join("\n");
  const rows = [
    ["lines", "files", "main", "share", "authors", "path"].map(s.dim),
    ...r.results.map((x) => [String(x.lines), String(x.files), x.main ? x.main.author : "-", x.main ? `${Math.round(x.main.share * 100)}%${x.island ? " island" : ""}` : "", String(x.authors), x.path + s.dim(x.declared ? ` (declared ${x.declared.join(" ")}${x.drift ? `; wrote nothing: ${x.drift.join(" ")}` : ""})` : "") + s.dim(x.agents ? ` (agents: ${Object.entries(x.agents).map(([a, v]) => `${a} ${v.lines}`).join(", ")})` : "")]),
  ];
  return [...out, ...(r.results.length ? table(rows, new Set([0, 1, 4])) : []), ...leftOut, ...moreLine(w, "more rows", r, ["limit", r.results.length * 2]).map(s.dim)].join("\n");
}

/** CODEOWNERS beside the actual owners: who is declared, who of them wrote nothing here, and the lines that could not be read. */
function declaredText(r: OwnersOutput, s: Style): string[] {
  if (!r.codeowners) return [];
  return [
    ...(r.declared ? [`declared in ${r.codeowners}: ${r.declared.join(" ")}${r.drift ? s.yellow(`; wrote nothing here: ${r.drift.join(" ")}`) : ""}`] : []),
    ...(r.codeownersErrors ?? []).map((e) => s.yellow(`${r.codeowners} ${e}`)),
  ];
}
