/** Human rendering of contributors. */
import type { ContributorsOutput } from "../../queries/contributors.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";
import { agentSharesText } from "./provenance.ts";

export function renderContributors(r: ContributorsOutput & { continue?: string }, s: Style, w: Words): string {
  const head = s.dim(`${plural(r.totalLines, "line")} in ${plural(r.files, "text file")}${r.path ? ` under ${r.path}` : ""}${r.beforeHistory ? `, ${r.beforeHistory} of them from before this clone's history` : ""}`);
  if (r.results.length === 0) return [head, "No lines to attribute.", ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`))].join("\n");
  const co = r.results.some((x) => x.coLines);
  const rows = [
    ["lines", "share", "commits", ...(co ? ["co-lines"] : []), "last", "author"].map(s.dim),
    ...r.results.map((x) => [String(x.lines), `${Math.round(x.share * 100)}%`, String(x.commits), ...(co ? [x.coLines ? `${x.coLines} (${x.coCommits})` : ""] : []), day(x.lastChanged), `${x.author} ${s.dim(`<${x.email}>`)}${x.bot ? s.dim(" (bot)") : ""}${x.agentLines ? s.dim(` (${x.agentLines} with agents)`) : ""}`]),
  ];
  return [head, ...table(rows, new Set([0, 1, 2, 3])), ...agentSharesText(r.agents).map(s.dim), ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)), ...moreLine(w, "more authors", r, ["limit", r.results.length * 2]).map(s.dim)].join("\n");
}
