/** Human rendering of compare: where the branches part, the commits, the files. */
import type { CompareOutput } from "../../queries/compare.ts";
import type { Style } from "../style.ts";
import { commitLines, fileLines } from "./log.ts";
import { moreLine, type Words } from "./words.ts";

export function renderCompare(r: CompareOutput & { after?: number; continue?: string }, s: Style, w: Words): string {
  // A continued page: the commits and files after those listed before.
  if (r.after !== undefined) return [...commitLines(r.commits, s), ...(r.files?.length ? fileLines(r.files, r.files.length, s, "  ") : []), ...(r.patch ? [r.patch.replace(/\n$/, "")] : [])].join("\n");
  const out = [`${s.bold(r.head.slice(0, 12))} is ${r.ahead} ahead, ${r.behind} behind ${s.bold(r.base.slice(0, 12))} ${s.dim(`(merge base ${r.mergeBase.slice(0, 12)})`)}`, ""];
  out.push(s.bold(`Commits (${r.ahead})`), ...commitLines(r.commits, s).map((l) => l), "");
  if (r.files) out.push(s.bold(`Files (${r.filesTotal})`), ...fileLines(r.files, r.filesTotal ?? r.files.length, s, "  "));
  if (r.patch !== undefined) out.push("", r.patch.replace(/\n$/, ""));
  const lines = w.set("diffLines");
  if (r.truncated && r.patch !== undefined && !r.continue) out.push(s.dim(`… patch cut: ${lines ? `raise ${lines}, or ` : ""}name fewer paths`));
  // Commits cut at the limit: one line for a longer list and the token for the rest.
  else if (r.patch === undefined) out.push(...moreLine(w, "more commits", r, ["limit", r.commits.length * 2]).map(s.dim));
  return out.join("\n");
}
