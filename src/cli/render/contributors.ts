/** Human rendering of contributors. */
import type { ContributorsOutput } from "../../queries/contributors.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";

export function renderContributors(r: ContributorsOutput, s: Style): string {
  const head = s.dim(`${r.totalLines} lines in ${r.files} text files${r.path ? ` under ${r.path}` : ""}${r.beforeHistory ? `, ${r.beforeHistory} of them from before this clone's history` : ""}`);
  if (r.results.length === 0) return [head, "No lines to attribute.", ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`))].join("\n");
  const co = r.results.some((x) => x.coLines);
  const rows = [
    ["lines", "share", "commits", ...(co ? ["co-lines"] : []), "last", "author"].map(s.dim),
    ...r.results.map((x) => [String(x.lines), `${Math.round(x.share * 100)}%`, String(x.commits), ...(co ? [x.coLines ? `${x.coLines} (${x.coCommits})` : ""] : []), day(x.lastChanged), `${x.author} ${s.dim(`<${x.email}>`)}${x.bot ? s.dim(" (bot)") : ""}`]),
  ];
  return [head, ...table(rows, new Set([0, 1, 2, 3])), ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)), ...(r.truncated ? [s.dim("… more authors: raise -n")] : [])].join("\n");
}
