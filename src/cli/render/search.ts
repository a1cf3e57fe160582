/** Human rendering of search: one line per commit, then its snippet (messages) or its files with the count's change (code). */
import type { SearchOutput } from "../../queries/search.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { noun, plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderSearch(r: SearchOutput & { continue?: string }, s: Style, w: Words): string {
  const leftOut = (r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`));
  if (r.results.length === 0) return [`No commit ${r.mode ? "changed the number of" : "message matches"} ${JSON.stringify(r.query)}${r.mode ? " in the code" : ""}.`, ...leftOut].join("\n");
  const out: string[] = [];
  for (const c of r.results) {
    out.push(table([[s.yellow(c.sha), s.dim(day(c.time)), c.author, c.subject]])[0]!);
    if (c.snippet !== undefined && c.snippet.replace(/[«»]/g, "") !== c.subject) out.push("    " + c.snippet.replace(/«[^»]*»/g, (m: string) => s.bold(m)));
    for (const f of c.files ?? []) out.push(`    ${s.green("+" + f.added)} ${s.red("-" + f.removed)}  ${f.path}`);
    if (c.filesTotal !== undefined) out.push(s.dim(`    … ${plural(c.filesTotal - (c.files?.length ?? 0), "more file", "more files")}`));
  }
  // --oldest: the lines the oldest commit added the text with.
  for (const [path, hunks] of Object.entries(r.diff ?? {})) out.push("", s.bold(`${r.results[0]!.sha} added it to ${path}:`), ...hunks.split("\n").map((l) => (l.startsWith("+") ? s.green(l) : l.startsWith("-") ? s.red(l) : l.startsWith("@@") ? s.dim(l) : l)));
  // A message search counts its matches: the count and how to see more on one line.
  const more = moreLine(w, "more commits", r, ["limit", r.results.length * 2]);
  if (r.total !== undefined) out.push(s.dim(`${plural(r.total, "commit")} ${noun(r.total, "matches", "match")}${more.length ? `; ${more[0]!.replace(/^… more commits: /, "")}` : "."}`));
  else out.push(...more.map(s.dim));
  out.push(...leftOut);
  return out.join("\n");
}
