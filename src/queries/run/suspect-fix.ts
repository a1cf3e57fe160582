/** What a fix changes, per file, from one -U0 diff: the old side's lines it deletes or rewrites, where it only adds, and the text it adds. */
import { unquoteCPath } from "../../git/paths.ts";

export interface FixFile {
  /** The old side's name (the file as the parent has it). */
  path: string;
  /** Old-side ranges the fix deletes or rewrites. */
  deleted: [number, number][];
  /** Old-side lines after which the fix only adds (an insertion after line n). */
  insertedAfter: number[];
  /** The file is new in the fix: no old side to blame. */
  isNew: boolean;
  /** The lines it adds, trimmed. */
  added: string[];
}

/** The diff options: no external diff or textconv driver, no context, renames followed. */
export const FIX_DIFF = ["diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "-M"];

const name = (raw: string) => unquoteCPath(Buffer.from(raw, "utf8"));

export function parseFix(patch: string): FixFile[] {
  const files: FixFile[] = [];
  let cur: FixFile | undefined;
  let inHunk = false;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      cur = undefined;
      inHunk = false;
      continue;
    }
    if (!inHunk && line.startsWith("--- ")) {
      const p = line.slice(4);
      // A file the fix adds has no old side to blame, but its lines may restore what was removed elsewhere.
      cur = { path: p === "/dev/null" ? "" : name(p).replace(/^a\//, ""), isNew: p === "/dev/null", deleted: [], insertedAfter: [], added: [] };
      files.push(cur);
      continue;
    }
    if (!cur) continue;
    if (!inHunk && line.startsWith("+++ ")) {
      if (cur.path === "") cur.path = name(line.slice(4)).replace(/^b\//, "");
      continue;
    }
    const h = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (h) {
      inHunk = true;
      const start = Number(h[1]);
      const count = h[2] === undefined ? 1 : Number(h[2]);
      if (count > 0) cur.deleted.push([start, start + count - 1]);
      else cur.insertedAfter.push(start);
      continue;
    }
    if (inHunk && line.startsWith("+")) cur.added.push(line.slice(1).trim());
  }
  return files;
}
