/** Counts the lines of blobs (git cat-file --batch), once per blob; a binary blob has none. */
import { looksBinary } from "../git/binary.ts";
import { gitStream } from "../git/run.ts";
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

/** Reads `<sha> blob <size>\n<content>\n` records as chunks arrive. */
class BatchReader {
  private buf: Buffer = Buffer.alloc(0);
  readonly counts = new Map<string, number | null>();

  push(chunk: Uint8Array): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    for (;;) {
      const nl = this.buf.indexOf(0x0a);
      if (nl < 0) return;
      const [sha, type, size] = this.buf.toString("latin1", 0, nl).split(" ");
      if (type === "missing") {
        this.buf = this.buf.subarray(nl + 1);
        continue;
      }
      const end = nl + 1 + Number(size);
      if (this.buf.length < end + 1) return;
      this.counts.set(sha!, countLines(this.buf.subarray(nl + 1, end)));
      this.buf = this.buf.subarray(end + 1);
    }
  }
}

/** Line counts for blobs, measured once and cached in the index. */
export async function lineCounts(ix: IndexContext, blobs: string[]): Promise<Map<string, number | null>> {
  const known = ix.store.tree.lineCounts(blobs);
  const missing = [...new Set(blobs.filter((b) => !known.has(b)))];
  if (missing.length > 0) {
    const reader = new BatchReader();
    await gitStream(["cat-file", "--batch"], { ...ix.git, input: missing.join("\n") + "\n" }, (c) => reader.push(c));
    ix.store.transaction(() => ix.store.tree.saveLineCounts(reader.counts));
    for (const [b, n] of reader.counts) known.set(b, n);
  }
  return known;
}
