/** What hotspots needs beside counts: the files' indentation complexity, the knee of the curve. */
import { looksBinary } from "../../git/binary.ts";
import { gitStream } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

/** Indentation complexity (Tornhill): leading tabs + leading spaces / 4, summed over the non-blank lines; 0 for a binary file. */
export function indentComplexity(content: Uint8Array): number {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (looksBinary(buf)) return 0;
  let total = 0;
  let i = 0;
  while (i < buf.length) {
    let tabs = 0;
    let spaces = 0;
    while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) buf[i++] === 0x09 ? tabs++ : spaces++;
    const blank = i >= buf.length || buf[i] === 0x0a || (buf[i] === 0x0d && buf[i + 1] === 0x0a);
    if (!blank) total += tabs + spaces / 4;
    const nl = buf.indexOf(0x0a, i);
    i = nl < 0 ? buf.length : nl + 1;
  }
  return total;
}

/** Complexity per blob, read once (git cat-file --batch) and remembered: a blob never changes. */
const known = new Map<string, number>();

export async function complexities(ctx: QueryContext, blobs: string[]): Promise<Map<string, number>> {
  const missing = [...new Set(blobs.filter((b) => !known.has(b)))];
  if (missing.length > 0) {
    let buf = Buffer.alloc(0);
    await gitStream(["cat-file", "--batch"], { ...ctx.index.git, input: missing.join("\n") + "\n" }, (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
      for (;;) {
        const nl = buf.indexOf(0x0a);
        if (nl < 0) return;
        const [sha, type, size] = buf.toString("latin1", 0, nl).split(" ");
        if (type === "missing") {
          buf = buf.subarray(nl + 1);
          continue;
        }
        const end = nl + 1 + Number(size);
        if (buf.length < end + 1) return;
        known.set(sha!, Math.round(indentComplexity(buf.subarray(nl + 1, end))));
        buf = buf.subarray(end + 1);
      }
    });
    if (known.size > 200_000) known.clear();
  }
  return new Map(blobs.map((b) => [b, known.get(b) ?? 0]));
}

/**
 * The knee of a change-frequency curve (counts sorted high to low): the point farthest from the
 * straight line between its first and last points (Kneedle): the first point past the drop. Files
 * changed more often than this are hotspots. Infinity when there is no curve to speak of.
 */
export function kneeOf(sortedDesc: number[]): number {
  const n = sortedDesc.length;
  if (n < 3 || sortedDesc[0] === sortedDesc[n - 1]) return Infinity;
  const [y0, y1] = [sortedDesc[0]!, sortedDesc[n - 1]!];
  let best = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    // Both axes scaled to 0..1; distance below the chord from (0, 1) to (1, 0).
    const x = i / (n - 1);
    const y = (sortedDesc[i]! - y1) / (y0 - y1);
    const d = 1 - x - y;
    if (d > best) [best, at] = [d, i];
  }
  return sortedDesc[at]!;
}
