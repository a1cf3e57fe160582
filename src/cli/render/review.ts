/** Human rendering of review: the fixes a change undoes first, with their messages, then the files it may have missed, then whom to ask. */
import { provenanceText } from "./provenance.ts";
import type { ReviewOutput } from "../../queries/review.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

function ranges(r: [number, number][]): string {
  return r.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(",");
}

export function renderReview(r: ReviewOutput & { after?: number; continue?: string }, s: Style, w: Words): string {
  // A continued page: the files after those the pages before listed, nothing of the review again.
  if (r.after !== undefined) return fileRows(r, s).join("\n");
  const out: string[] = [];
  const against = r.mergeBase ? `since the merge base ${r.mergeBase.slice(0, 12)} with ${r.base!.slice(0, 12)}` : `against HEAD ${r.rev.slice(0, 12)}`;
  if (r.note) out.push(s.yellow(r.note));
  if (r.files.length === 0) return out.join("\n");
  out.push(s.dim(`${plural(r.filesTotal, "file")} changed ${against}`), "");

  const fixes = Object.entries(r.fixes);
  if (fixes.length) {
    out.push(s.bold(`Fixes your change rewrites (${fixes.length}): read why before undoing them`));
    for (const [sha, message] of fixes) {
      const c = r.commits[sha];
      const where = r.files.filter((f) => f.rewrites?.[sha]).map((f) => `${f.path}:${ranges(f.rewrites![sha]!)}`);
      out.push(`${s.yellow(sha)} ${c ? s.dim(`${c[0]}, ${c[1].slice(0, 10)}${provenanceText(c[3], c[2])}`) : ""}  ${s.dim(where.join(" "))}`);
      out.push(...message.split("\n").map((l) => `    ${l}`), "");
    }
  }

  out.push(s.bold("Files"), ...fileRows(r, s));
  // The files after this page: one line with the count and the token.
  const rest = moreLine(w, plural(r.filesTotal - r.files.length, "more file", "more files"), r);
  if (r.truncated) out.push(s.dim(`  ${rest[0] ?? `… ${plural(r.filesTotal - r.files.length, "more file", "more files")}`}`));

  out.push("", s.bold("May have missed (goes with these, untouched)"));
  if (r.missing.length === 0) out.push(s.dim("  nothing: no file usually changes with these that the change leaves out"));
  else out.push(...table(r.missing.map((m) => [m.path, s.dim(m.why)])).map((l) => `  ${l}`));

  out.push("", s.bold("Whom to ask (wrote the lines you rewrite)"));
  if (r.people.length === 0) out.push(s.dim("  nobody else: the change rewrites no one else's lines"));
  else out.push(...table(r.people.map((p) => [String(p.lines), p.author, s.dim(p.email)]), new Set([0])).map((l) => `  ${l}`));
  if (r.declared) out.push(`  declared owners (CODEOWNERS): ${r.declared.join(" ")}`);
  for (const e of r.codeownersErrors ?? []) out.push(s.yellow(`  CODEOWNERS ${e}`));

  const other = Object.entries(r.commits).filter(([sha]) => !r.fixes[sha]);
  if (other.length) {
    out.push("", s.bold("Other commits behind the rewritten lines"));
    out.push(...table(other.map(([sha, [author, time, subject, marks]]) => [sha, time.slice(0, 10), author, subject + s.dim(provenanceText(marks, subject))])).map((l) => `  ${l}`));
  }
  if (r.leftOut?.length) out.push("", ...r.leftOut.map((l) => s.yellow(`left out: ${l}`)));
  return out.join("\n");
}

/** A line per file: status, +/-, path, and the commits whose lines it rewrites (a fix's in yellow). */
function fileRows(r: ReviewOutput, s: Style): string[] {
  const rows = r.files.map((f) => {
    const size = f.binary ? "binary" : `+${f.additions ?? 0} -${f.deletions ?? 0}`;
    const name = f.oldPath ? `${f.oldPath} → ${f.path}` : f.path;
    const commits = [...(f.rewrites ? Object.keys(f.rewrites).map((sha) => (r.fixes?.[sha] ? s.yellow(sha) : sha)) : []), ...(f.beforeHistory ? ["(and lines from before this clone's history)"] : [])].join(" ");
    return [f.status ?? "M", size, name + (f.conflict ? s.red(" (conflict)") : ""), s.dim(commits)];
  });
  return table(rows).map((l) => `  ${l}`);
}
