/** Parses `git ls-tree -r -z -l --full-tree`. */
import type { TreeEntry } from "./records.ts";
import { decodePath } from "./paths.ts";

export function parseLsTree(out: Uint8Array): TreeEntry[] {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const entries: TreeEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const end = buf.indexOf(0, pos);
    const stop = end < 0 ? buf.length : end;
    const tab = buf.indexOf(0x09, pos);
    // "<mode> <type> <object> <size>\t<path>"; the size is right-aligned with spaces.
    const [mode, type, blob, size] = buf.toString("latin1", pos, tab).split(/ +/);
    entries.push({
      mode: mode!,
      type: type as TreeEntry["type"],
      blob: blob!,
      size: size === "-" || size === undefined ? null : Number(size),
      path: decodePath(buf.subarray(tab + 1, stop)),
    });
    pos = stop + 1;
  }
  return entries;
}
