/** Human rendering of show: the commit as git show prints it (header, message, files, patch), or a file's text. */
import type { ShowCommitOutput, ShowFileOutput, ShowOutput } from "../../queries/show.ts";
import type { Style } from "../style.ts";
import { fileLines } from "./log.ts";
import { lineSpan } from "../../plural.ts";
import type { Words } from "./words.ts";

export function renderShow(r: ShowOutput, s: Style, w: Words): string {
  return "text" in r ? renderFile(r, s, w) : renderCommit(r, s, w);
}

function renderFile(r: ShowFileOutput, s: Style, w: Words): string {
  const rest = w.face === "cli" ? `-L ${r.range[1] + 1},${r.lines}` : w.set("startLine", r.range[1] + 1);
  const cut = r.truncated ? [s.dim(`… more: ${lineSpan(r.range[0], r.range[1])} of ${r.lines}; ask for the rest with ${rest}`)] : [];
  return [r.text.replace(/\n$/, ""), ...cut].join("\n");
}

function renderCommit(r: ShowCommitOutput & { after?: number; continue?: string }, s: Style, w: Words): string {
  const patch = r.patch !== undefined ? [r.patch.replace(/\n$/, "")] : [];
  // A continued page: the files after those the first page listed, the patch's next part, nothing of the commit again.
  if (r.after !== undefined) return [...(r.files.length ? fileLines(r.files, r.filesTotal - r.after, s, "") : []), ...(r.files.length && patch.length ? [""] : []), ...patch].join("\n");
  const out = [s.yellow(`commit ${r.sha}`)];
  if (r.parents.length > 1) out.push(`Merge: ${r.parents.map((p) => p.slice(0, 12)).join(" ")}${s.dim(" (files against the first parent)")}`);
  out.push(`Author: ${r.author} <${r.email}>`, `Date:   ${r.time}`, ...provenanceLines(r), "", ...r.message.split("\n").map((l) => "    " + l), "");
  out.push(...fileLines(r.files, r.filesTotal, s, ""));
  out.push(...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)));
  if (patch.length) out.push("", ...patch);
  // (A page's cut patch says its continue instead.)
  const lines = w.set("diffLines");
  if (r.truncated && !r.continue) out.push(s.dim(`… the patch is cut: ${lines ? `ask for more with ${lines} N, or ` : ""}name fewer files`));
  return out.join("\n");
}

/** PR, release and agent under the date, as git's own headers are: only those known. */
function provenanceLines(r: ShowCommitOutput): string[] {
  return [...(r.pr !== undefined ? [`PR:     #${r.pr}`] : []), ...(r.release ? [`Release: ${r.release}`] : []), ...(r.agent ? [`Agent:  ${r.agent}${r.agentSignal ? ` (${r.agentSignal})` : ""}`] : [])];
}
