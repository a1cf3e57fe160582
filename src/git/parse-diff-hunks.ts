/** Parses one `git diff --raw --numstat -p -U0 -z` into a record per file: status, +/-, modes, and the old side's deleted line ranges. */
import type { ChangeStatus } from "./records.ts";
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
 * git prints the raw records, then as many numstat records, then the patch, all in one order: the
 * raw records are counted first so a path that looks like a patch header cannot mislead. A type
 * change (file to symlink) is two patch sections, deletion then creation.
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
  const raw: { status: ChangeStatus; path: string; oldPath?: string; oldMode: string; newMode: string }[] = [];
  while (pos < t.length && t.charCodeAt(pos) === 0x3a) {
    const meta = field().slice(1).split(" ");
    const status = (meta[4] ?? "M")[0] as ChangeStatus;
    const modes = { oldMode: meta[0] ?? "000000", newMode: meta[1] ?? "000000" };
    if (status === "R" || status === "C") {
      const oldPath = fromLatin1(field());
      raw.push({ status, path: fromLatin1(field()), oldPath, ...modes });
    } else raw.push({ status, path: fromLatin1(field()), ...modes });
  }
  const counts: [number | null, number | null][] = [];
  const n = (s: string) => (s === "-" ? null : Number(s));
  while (counts.length < raw.length && pos < t.length) {
    const tab1 = t.indexOf("\t", pos);
    const tab2 = t.indexOf("\t", tab1 + 1);
    counts.push([n(t.slice(pos, tab1)), n(t.slice(tab1 + 1, tab2))]);
    pos = tab2 + 1;
    // "ADD\tDEL\tpath\0", or for a rename "ADD\tDEL\t\0old\0new\0".
    if (t.charCodeAt(pos) === 0) {
      pos++;
      field();
      field();
    } else field();
  }
  // A NUL ends the numstat records before the patch begins.
  while (t.charCodeAt(pos) === 0) pos++;
  const patch = sections(t.slice(pos));
  let next = 0;
  return raw.map((r, i) => {
    const mine = patch.slice(next, (next += r.status === "T" ? 2 : 1));
    // Of a type change only the deletion section speaks of the old side's lines.
    const deleted = r.status === "U" || mine.length === 0 ? [] : deletedRanges(mine[0]!);
    return { ...r, additions: counts[i]?.[0] ?? null, deletions: counts[i]?.[1] ?? null, deleted };
  });
}
