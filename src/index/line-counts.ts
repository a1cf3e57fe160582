/** Counts the lines of blobs (git cat-file --batch), once per blob; a binary blob has none. */
import { looksBinary } from "../git/binary.ts";
import { catBlobs } from "../git/cat-file.ts";
import type { IndexContext } from "./context.ts";

/** Lines as git blame counts them: newlines, plus one for a last line without one. */
export function countLines(content: Uint8Array): number | null {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (looksBinary(buf)) return null;
  let n = 0;
  for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) n++;
  if (buf.length > 0 && buf[buf.length - 1] !== 0x0a) n++;
  return n;
}

/** Line counts for blobs, measured once and cached in the index. */
export async function lineCounts(ix: IndexContext, blobs: string[]): Promise<Map<string, number | null>> {
  const known = ix.store.tree.lineCounts(blobs);
  const missing = [...new Set(blobs.filter((b) => !known.has(b)))];
  if (missing.length > 0) {
    const counts = new Map<string, number | null>();
    await catBlobs(missing, ix.git, (sha, content) => {
      if (content) counts.set(sha, countLines(content));
    });
    ix.store.transaction(() => ix.store.tree.saveLineCounts(counts));
    for (const [b, n] of counts) known.set(b, n);
  }
  return known;
}
