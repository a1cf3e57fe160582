/**
 * The change index's posting lists. A word's list holds, per commit that changed it, each file it
 * changed in: the file's place in the commit's diff (`ord`, git's order) and the word's
 * occurrences on the added and on the removed lines (`plus`, `minus`). For a binary file, whose
 * patch shows no lines, they are the word's net change between the two blobs.
 *
 * Bytes, per commit: a varint of the id's gap from the previous one (zigzag: the pass meets ids
 * in git log order, nearly always ascending) × 2 + whether several files follow, then the number
 * of files less two when several; per file one byte below 0x80 (o << 4 | p << 2 | m, for ord < 8
 * and plus, minus < 4) or 0x80 | binary and three varints. Most commits take two or three bytes.
 */

export interface WordInFile {
  ord: number;
  plus: number;
  minus: number;
  binary: boolean;
}

/** A posting list as the pass writes it, commit after commit. */
export class PostingWriter {
  private bytes = new Uint8Array(16);
  private length = 0;
  private last = 0;

  add(id: number, files: WordInFile[]): void {
    const gap = id - this.last;
    this.last = id;
    this.varint((gap >= 0 ? gap * 2 : -gap * 2 - 1) * 2 + (files.length > 1 ? 1 : 0));
    if (files.length > 1) this.varint(files.length - 2);
    for (const f of files) {
      if (!f.binary && f.ord < 8 && f.plus < 4 && f.minus < 4) this.byte((f.ord << 4) | (f.plus << 2) | f.minus);
      else {
        this.byte(0x80 | (f.binary ? 1 : 0));
        this.varint(f.ord);
        this.varint(f.plus);
        this.varint(f.minus);
      }
    }
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private byte(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }

  private varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    this.byte(n);
  }
}

/** Calls `onFile` for every (commit, file) of a posting list. */
export function decodePostings(bytes: Uint8Array, onFile: (id: number, ord: number, plus: number, minus: number, binary: boolean) => void): void {
  let pos = 0;
  let id = 0;
  const read = (): number => {
    let v = 0;
    let shift = 1;
    for (;;) {
      const b = bytes[pos++]!;
      v += (b & 0x7f) * shift;
      if (b < 0x80) return v;
      shift *= 128;
    }
  };
  while (pos < bytes.length) {
    const head = read();
    const zigzag = Math.floor(head / 2);
    id += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    const files = head % 2 === 1 ? read() + 2 : 1;
    for (let k = 0; k < files; k++) {
      const b = bytes[pos++]!;
      if (b < 0x80) onFile(id, b >> 4, (b >> 2) & 3, b & 3, false);
      else {
        const ord = read();
        const plus = read();
        onFile(id, ord, plus, read(), (b & 1) === 1);
      }
    }
  }
}

/** A batch's commit ids (ascending) as varints of their gaps. */
export function encodeIds(ids: number[]): Uint8Array {
  const out: number[] = [];
  let last = 0;
  for (const id of [...ids].sort((a, b) => a - b)) {
    let gap = id - last;
    last = id;
    while (gap >= 0x80) {
      out.push((gap & 0x7f) | 0x80);
      gap = Math.floor(gap / 128);
    }
    out.push(gap);
  }
  return Uint8Array.from(out);
}

export function decodeIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  let id = 0;
  for (let pos = 0; pos < bytes.length; ) {
    let gap = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = bytes[pos++]!;
      gap += (b & 0x7f) * shift;
      if (b < 0x80) break;
    }
    ids.push((id += gap));
  }
  return ids;
}
