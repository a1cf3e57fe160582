/** Parses `git diff-tree -r -z --raw --numstat` output into one record per file, in git's order. */
import type { ChangeStatus } from "./records.ts";
import { fromLatin1 } from "./paths.ts";

export interface DiffFile {
  status: ChangeStatus;
  path: string;
  /** The source of a rename or copy. */
  oldPath?: string;
  /** null for a binary file (numstat prints "-"). */
  additions: number | null;
  deletions: number | null;
}

/** git prints the raw records first, then the numstat records, both in the diff queue's order: zip them. */
export function parseRawNumstat(bytes: Uint8Array): DiffFile[] {
  const t = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const raw: { status: ChangeStatus; path: string; oldPath?: string }[] = [];
  const counts: [number | null, number | null][] = [];
  let pos = 0;
  const field = () => {
    const end = t.indexOf("\0", pos);
    const v = t.slice(pos, end < 0 ? t.length : end);
    pos = end < 0 ? t.length : end + 1;
    return v;
  };
  while (pos < t.length) {
    const ch = t.charCodeAt(pos);
    if (ch === 0 || ch === 0x0a) {
      pos++;
    } else if (ch === 0x3a) {
      const meta = field().slice(1).split(" ");
      const status = (meta[4] ?? "M")[0] as ChangeStatus;
      if (status === "R" || status === "C") {
        const oldPath = fromLatin1(field());
        raw.push({ status, path: fromLatin1(field()), oldPath });
      } else raw.push({ status, path: fromLatin1(field()) });
    } else {
      // "ADD\tDEL\tpath\0", or for a rename "ADD\tDEL\t\0old\0new\0".
      const tab1 = t.indexOf("\t", pos);
      const tab2 = t.indexOf("\t", tab1 + 1);
      const n = (s: string) => (s === "-" ? null : Number(s));
      counts.push([n(t.slice(pos, tab1)), n(t.slice(tab1 + 1, tab2))]);
      pos = tab2 + 1;
      if (t.charCodeAt(pos) === 0) {
        pos++;
        field();
        field();
      } else field();
    }
  }
  return raw.map((r, i) => ({ ...r, additions: counts[i]?.[0] ?? null, deletions: counts[i]?.[1] ?? null }));
}
