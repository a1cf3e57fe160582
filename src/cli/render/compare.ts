/** Human rendering of compare: where the branches part, the commits, the files. */
import type { CompareOutput } from "../../queries/compare.ts";
import type { Style } from "../style.ts";
import { commitLines, fileLines } from "./log.ts";

export function renderCompare(r: CompareOutput & { after?: number; continue?: string }, s: Style): string {
  // A continued page: the commits and files after those listed before.
  if (r.after !== undefined) return [...commitLines(r.commits, s), ...(r.files?.length ? fileLines(r.files, r.files.length, s, "  ") : []), ...(r.patch ? [r.patch.replace(/\n$/, "")] : [])].join("\n");
  const out = [`${s.bold(r.head.slice(0, 12))} is ${r.ahead} ahead, ${r.behind} behind ${s.bold(r.base.slice(0, 12))} ${s.dim(`(merge base ${r.mergeBase.slice(0, 12)})`)}`, ""];
  out.push(s.bold(`Commits (${r.ahead})`), ...commitLines(r.commits, s).map((l) => l), "");
  if (r.files) out.push(s.bold(`Files (${r.filesTotal})`), ...fileLines(r.files, r.filesTotal ?? r.files.length, s, "  "));
  if (r.patch !== undefined) out.push("", r.patch.replace(/\n$/, ""));
  if (r.truncated && r.patch !== undefined && !r.continue) out.push(s.dim("… cut: more patch with --diff-lines, or name paths"));
  return out.join("\n");
}
