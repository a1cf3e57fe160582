/** Parses one `git diff --raw --numstat -p -U0 -z` into a record per file: status, +/-, modes, and the old side's deleted line ranges. */
import type { ChangeStatus } from "./records.ts";
import { diffImports } from "./diff-imports.ts";
import { diffRemoved } from "./diff-removed.ts";
import { diffWords } from "./diff-words.ts";
import { patchLines } from "./patch-lines.ts";
import { fromLatin1 } from "./paths.ts";

export interface ChangedFile {
  status: ChangeStatus;
  path: string;
  /** The source of a rename or copy. */
  oldPath?: string;
  oldMode: string;
  newMode: string;
  /** null for a binary file (numstat prints "-"). */
  additions: number | null;
  deletions: number | null;
  /** The old side's lines this change deletes or replaces, as [first, last] ranges in the old numbering. */
  deleted: [number, number][];
  /** Set by the reader for an unmerged path (mid-merge): what the patch shows is the file on disk. */
  conflict?: boolean;
  /** The identifiers its patch speaks of (diff-words.ts): what the change is about. */
  words?: string[];
  /** The relative modules its added lines import (diff-imports.ts), as written. */
  imports?: string[];
  /** The lines its patch removes and does not add back, trimmed, the longest first (diff-removed.ts). */
  removed?: string[];
}

/** The @@ -a[,b] +c[,d] @@ headers of one file's -U0 patch, as the old side's deleted ranges. */
export function deletedRanges(section: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of section.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count > 0) out.push([start, start + count - 1]);
  }
  return out;
}

/** Splits the patch text at each file's header: `diff --git` (or `diff --cc`), or the line git prints for an unmerged path. */
function sections(patch: string): string[] {
  const starts: number[] = [];
  const re = /^(?:diff --git |diff --cc |\* Unmerged path )/gm;
  for (const m of patch.matchAll(re)) starts.push(m.index!);
  return starts.map((s, i) => patch.slice(s, starts[i + 1] ?? patch.length));
}

/**
 * git prints the raw records, then the numstat records, then the patch, all in one order; the patch
 * has one section per numstat record, so a path that looks like a patch header cannot mislead. A
 * type change (file to symlink) is two sections, deletion then creation.
 */
export function parseDiffWithHunks(bytes: Uint8Array): ChangedFile[] {
  const t = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let pos = 0;
  const field = () => {
    const end = t.indexOf("\0", pos);
    const v = t.slice(pos, end < 0 ? t.length : end);
    pos = end < 0 ? t.length : end + 1;
    return v;
  };
  // Paths stay as read (one char per byte) until the end: numstat's records are matched to them by name.
  const raw: { status: ChangeStatus; path: string; oldPath?: string; oldMode: string; newMode: string }[] = [];
  while (pos < t.length && t.charCodeAt(pos) === 0x3a) {
    const meta = field().slice(1).split(" ");
    const status = (meta[4] ?? "M")[0] as ChangeStatus;
    const modes = { oldMode: meta[0] ?? "000000", newMode: meta[1] ?? "000000" };
    if (status === "R" || status === "C") {
      const oldPath = field();
      raw.push({ status, path: field(), oldPath, ...modes });
    } else raw.push({ status, path: field(), ...modes });
  }
  // A file whose stat changed but whose content did not is a raw record with no numstat record and
  // no patch (the index is never refreshed): numstat names its paths, so the two are matched by name.
  const counts = new Map<string, [number | null, number | null]>();
  const n = (s: string) => (s === "-" ? null : Number(s));
  while (pos < t.length && /[0-9-]/.test(t[pos]!)) {
    const tab1 = t.indexOf("\t", pos);
    const tab2 = t.indexOf("\t", tab1 + 1);
    const count: [number | null, number | null] = [n(t.slice(pos, tab1)), n(t.slice(tab1 + 1, tab2))];
    pos = tab2 + 1;
    // "ADD\tDEL\tpath\0", or for a rename "ADD\tDEL\t\0old\0new\0".
    let key: string;
    if (t.charCodeAt(pos) === 0) {
      pos++;
      const old = field();
      key = `${old}\0${field()}`;
    } else key = field();
    counts.set(key, count);
  }
  // A NUL ends the numstat records before the patch begins.
  while (t.charCodeAt(pos) === 0) pos++;
  const patch = sections(t.slice(pos));
  let next = 0;
  const out: ChangedFile[] = [];
  for (const r of raw) {
    const key = r.oldPath !== undefined ? `${r.oldPath}\0${r.path}` : r.path;
    const count = counts.get(key);
    if (!count) continue;
    // A binary file whose stat changed has a numstat record ("-\t-") but no patch: it did not change.
    const header = r.status === "U" ? "* Unmerged path " : `diff --git ${quoted("a/" + (r.oldPath ?? r.path))} ${quoted("b/" + r.path)}\n`;
    if (!patch[next]?.startsWith(header)) continue;
    const mine = patch.slice(next, (next += r.status === "T" ? 2 : 1));
    // Of a type change only the deletion section speaks of the old side's lines.
    const deleted = r.status === "U" ? [] : deletedRanges(mine[0]!);
    const names = r.oldPath !== undefined ? { path: fromLatin1(r.path), oldPath: fromLatin1(r.oldPath) } : { path: fromLatin1(r.path) };
    const lines = patchLines(mine.join(""));
    out.push({ ...r, ...names, additions: count[0], deletions: count[1], deleted, words: diffWords(lines), imports: diffImports(lines).map(fromLatin1), removed: diffRemoved(lines) });
  }
  return out;
}

const ESCAPES: Record<string, string> = { "\x07": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\" };

/** A name as git's patch header prints it with core.quotepath=off: C-quoted when it holds a quote, a backslash or a control character. */
export function quoted(name: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/["\\\x00-\x1f\x7f]/.test(name)) return name;
  // eslint-disable-next-line no-control-regex
  return `"${name.replace(/["\\\x00-\x1f\x7f]/g, (c) => ESCAPES[c] ?? "\\" + c.charCodeAt(0).toString(8).padStart(3, "0"))}"`;
}
