/** Human rendering of log (and of compare's commits): one line per commit, its files indented beneath. */
import { provenanceText } from "./provenance.ts";
import type { LogCommit, LogFile, LogOutput } from "../../queries/log.ts";
import type { Style } from "../style.ts";
import { day, pad, table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function churn(f: { additions?: number; deletions?: number; binary?: true }, s: Style): string {
  return f.binary ? s.dim("binary") : `${s.green("+" + (f.additions ?? 0))} ${s.red("-" + (f.deletions ?? 0))}`;
}

/** Files as `git log --stat` lists them, roughly: status, path (and where it came from), +/-. */
export function fileLines(files: LogFile[], total: number, s: Style, indent = "    "): string[] {
  // Neither counts nor binary: git could not read the file's content (the answer's leftOut says why).
  const rows = files.map((f) => [indent + (f.status ?? "M"), f.oldPath ? `${f.oldPath} → ${f.path}` : f.path, f.additions === undefined && !f.binary ? s.dim("unreadable") : churn(f, s)]);
  const more = total > files.length ? [s.dim(`${indent}… ${plural(total - files.length, "more file", "more files")}`)] : [];
  return [...table(rows), ...more];
}

export function commitLines(commits: LogCommit[], s: Style): string[] {
  const out: string[] = [];
  for (const c of commits) {
    const head = `${s.yellow(c.sha)} ${s.dim(day(c.time))} ${pad(c.author, 0)}  ${c.merge ? s.dim("(merge) ") : ""}${c.subject}${s.dim(provenanceText(c, c.subject))}`;
    out.push(c.files.length || c.merge ? head : `${head}  ${churn(c, s)}`);
    out.push(...fileLines(c.files, c.filesTotal, s));
  }
  return out;
}

export function renderLog(r: LogOutput & { continue?: string }, s: Style, w: Words): string {
  if (r.commits.length === 0) return r.paths.length ? `No commit changed ${r.paths.join(", ")}.` : "No commits.";
  const more = moreLine(w, "more commits", r, ["limit", r.commits.length * 2]).map(s.dim);
  return [...commitLines(r.commits, s), ...(r.leftOut ?? []).map((l) => s.yellow(`left out: ${l}`)), ...more].join("\n");
}
