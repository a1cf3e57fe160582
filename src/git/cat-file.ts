/** Reads objects through one `git cat-file --batch` (or their sizes through `--batch-check`). */
import { gitStream, type GitOptions } from "./run.ts";

/**
 * Parses `<sha> <type> <size>\n<content>\n` records (`<sha> missing\n` for an absent object) as
 * chunks arrive, joining a large object's chunks once, when all of it is there.
 */
export class CatFileReader {
  private chunks: Buffer[] = [];
  private have = 0;
  private object: { sha: string; size: number } | null = null;

  constructor(private readonly onObject: (sha: string, content: Buffer | null) => void) {}

  push(chunk: Uint8Array): void {
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.have += chunk.byteLength;
    for (;;) {
      if (!this.object) {
        const buf = this.joined();
        const nl = buf.indexOf(0x0a);
        if (nl < 0) return;
        const [sha, type, size] = buf.toString("latin1", 0, nl).split(" ");
        this.take(nl + 1);
        if (type === "missing" || size === undefined) this.onObject(sha!, null);
        else this.object = { sha: sha!, size: Number(size) };
        continue;
      }
      // The content and its closing newline.
      if (this.have < this.object.size + 1) return;
      const buf = this.joined();
      this.onObject(this.object.sha, buf.subarray(0, this.object.size));
      this.take(this.object.size + 1);
      this.object = null;
    }
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(n: number): void {
    const rest = this.joined().subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.have = rest.length;
  }
}

/** Each object's content (null when git does not have it), in the order asked. */
export async function catBlobs(shas: string[], opts: GitOptions, onObject: (sha: string, content: Buffer | null) => void): Promise<void> {
  if (shas.length === 0) return;
  const reader = new CatFileReader(onObject);
  await gitStream(["cat-file", "--batch"], { ...opts, input: shas.join("\n") + "\n" }, (c) => reader.push(c));
}

/** Each object's size in bytes, without reading it; absent objects are left out. */
export async function blobSizes(shas: string[], opts: GitOptions): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (shas.length === 0) return sizes;
  let rest = "";
  await gitStream(["cat-file", "--batch-check=%(objectname) %(objectsize)"], { ...opts, input: shas.join("\n") + "\n" }, (c) => {
    const lines = (rest + Buffer.from(c).toString("latin1")).split("\n");
    rest = lines.pop()!;
    for (const l of lines) {
      const [sha, size] = l.split(" ");
      if (size !== undefined && size !== "missing") sizes.set(sha!, Number(size));
    }
  });
  return sizes;
}
