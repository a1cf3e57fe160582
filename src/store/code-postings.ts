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

/**
 * A posting list as the pass writes it, commit after commit: a commit's files one by one as the
 * patch is read (its entry's head, which counts them, goes in front when the commit ends), so a
 * commit of 20,000 files never waits whole in memory. A commit may have a second entry (gap 0).
 */
export class PostingWriter {
  private bytes = new Uint8Array(16);
  private length = 0;
  private last = 0;
  /** Files of the commit being written, and where its first one starts. */
  private files = 0;
  private start = 0;

  /** Whether a commit's entry is open (a file was given since the last endCommit). */
  get open(): boolean {
    return this.files > 0;
  }

  file(ord: number, plus: number, minus: number, binary: boolean): void {
    if (this.files++ === 0) this.start = this.length;
    if (!binary && ord < 8 && plus < 4 && minus < 4) this.byte((ord << 4) | (plus << 2) | minus);
    else {
      this.byte(0x80 | (binary ? 1 : 0));
      this.varint(ord);
      this.varint(plus);
      this.varint(minus);
    }
  }

  /** Closes the open entry as commit `id`'s: its head (the id's gap, and how many files) goes before its files. */
  endCommit(id: number): void {
    if (this.files === 0) return;
    const gap = id - this.last;
    this.last = id;
    const head: number[] = [];
    pushVarint(head, (gap >= 0 ? gap * 2 : -gap * 2 - 1) * 2 + (this.files > 1 ? 1 : 0));
    if (this.files > 1) pushVarint(head, this.files - 2);
    for (const _ of head) this.byte(0);
    this.bytes.copyWithin(this.start + head.length, this.start, this.length - head.length);
    this.bytes.set(head, this.start);
    this.files = 0;
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

function pushVarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
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
    pushVarint(out, id - last);
    last = id;
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
