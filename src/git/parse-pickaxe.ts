/**
 * Parses `git log -S/-G --format=PICKAXE_FORMAT -z --raw -p`: each commit with the files the
 * pickaxe kept, and each file's patch (in the raw list's order), for counting occurrences.
 */

export const PICKAXE_FORMAT = "%x1e%H%x00%aN%x00%at%x00%s%x00";
const FIELDS = 4;

export interface PickaxeFile {
  path: string;
  oldPath?: string;
  status: string;
  /** The file's part of the patch (from its "diff --git" line). */
  patch: string;
}

export interface PickaxeCommit {
  sha: string;
  author: string;
  time: number;
  subject: string;
  files: PickaxeFile[];
}

/** A record starts at 0x1e followed by a full commit id and a NUL (a 0x1e inside a patch line is text). */
const START = /\x1e(?=[0-9a-f]{40,64}\0)/g;

export function parsePickaxeLog(text: string): PickaxeCommit[] {
  const out: PickaxeCommit[] = [];
  for (const rec of text.split(START)) {
    if (rec === "") continue;
    let pos = 0;
    const fields: string[] = [];
    for (let k = 0; k < FIELDS; k++) {
      const end = rec.indexOf("\0", pos);
      fields.push(rec.slice(pos, end));
      pos = end + 1;
    }
    const files: PickaxeFile[] = [];
    while (pos < rec.length && (rec[pos] === "\0" || rec[pos] === "\n")) pos++;
    while (rec[pos] === ":") {
      const metaEnd = rec.indexOf("\0", pos);
      const meta = rec.slice(pos, metaEnd);
      const letter = meta.slice(meta.lastIndexOf(" ") + 1).charAt(0);
      const p1End = rec.indexOf("\0", metaEnd + 1);
      const first = rec.slice(metaEnd + 1, p1End);
      pos = p1End + 1;
      if (letter === "R" || letter === "C") {
        const p2End = rec.indexOf("\0", pos);
        files.push({ status: letter, oldPath: first, path: rec.slice(pos, p2End), patch: "" });
        pos = p2End + 1;
      } else files.push({ status: letter, path: first, patch: "" });
    }
    const patch = rec.slice(pos).replace(/^[\0\n]+/, "");
    const parts = patch.split(/^(?=diff --git )/m).filter((p) => p.startsWith("diff --git "));
    parts.forEach((p, i) => {
      if (files[i]) files[i]!.patch = p;
    });
    out.push({ sha: fields[0]!, author: fields[1]!, time: Number(fields[2]), subject: fields[3]!, files });
  }
  return out;
}

/** Occurrences of `find` (a string, or a global regex) in the patch's added and removed lines. */
export function countInPatch(patch: string, find: string | RegExp): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  const hunks = patch.indexOf("\n@@");
  if (hunks < 0) return { added, removed };
  for (const line of patch.slice(hunks + 1).split("\n")) {
    const sign = line.charCodeAt(0);
    if (sign !== 43 && sign !== 45) continue;
    const n = count(line.slice(1), find);
    if (sign === 43) added += n;
    else removed += n;
  }
  return { added, removed };
}

function count(line: string, find: string | RegExp): number {
  if (typeof find === "string") {
    let n = 0;
    for (let i = line.indexOf(find); i >= 0; i = line.indexOf(find, i + find.length)) n++;
    return n;
  }
  find.lastIndex = 0;
  let n = 0;
  for (let m = find.exec(line); m; m = find.exec(line)) {
    n++;
    if (m[0] === "") find.lastIndex++;
  }
  return n;
}
