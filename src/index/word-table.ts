/**
 * The words of the change index's pass, read straight from git's bytes: each distinct word
 * (a run of [A-Za-z0-9_], 3+ long) gets a small number once, and its text is kept once. A string
 * per word met made the pass's garbage outrun the collector: 500 MB resident at 100,000 commits.
 */

/** Whether the byte is a word character: [A-Za-z0-9_]. */
function isWordByte(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f;
}

export class WordTable {
  /** Open addressing: a word's number + 1, by hash; 0 is empty. */
  private slots = new Int32Array(1 << 14);
  private hashes = new Int32Array(1 << 12);
  private starts = new Int32Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private arena = new Uint8Array(1 << 16);
  private used = 0;
  size = 0;

  /** Calls `onWord` with the number of every word in bytes[start, end). */
  forEachWord(bytes: Uint8Array, start: number, end: number, onWord: (w: number) => void): void {
    for (let i = start; i < end; ) {
      if (!isWordByte(bytes[i]!)) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < end && isWordByte(bytes[j]!)) j++;
      if (j - i >= 3) onWord(this.intern(bytes, i, j));
      i = j;
    }
  }

  /** The word's text. */
  text(w: number): string {
    return Buffer.from(this.arena.buffer, this.arena.byteOffset + this.starts[w]!, this.lengths[w]!).toString("latin1");
  }

  private intern(bytes: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = this.slots[s]!;
      if (at === 0) return this.add(bytes, start, end, h, s);
      const w = at - 1;
      if (this.hashes[w] === h && this.lengths[w] === end - start && this.same(w, bytes, start)) return w;
    }
  }

  private same(w: number, bytes: Uint8Array, start: number): boolean {
    const from = this.starts[w]!;
    for (let k = 0; k < this.lengths[w]!; k++) if (this.arena[from + k] !== bytes[start + k]) return false;
    return true;
  }

  private add(bytes: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const w = this.size++;
    if (w === this.hashes.length) {
      this.hashes = grown(this.hashes, w * 2);
      this.starts = grown(this.starts, w * 2);
      this.lengths = grown(this.lengths, w * 2);
    }
    const n = end - start;
    if (this.used + n > this.arena.length) {
      const bigger = new Uint8Array(Math.max(this.arena.length * 2, this.used + n));
      bigger.set(this.arena.subarray(0, this.used));
      this.arena = bigger;
    }
    this.arena.set(bytes.subarray(start, end), this.used);
    this.hashes[w] = h;
    this.starts[w] = this.used;
    this.lengths[w] = n;
    this.used += n;
    this.slots[slot] = w + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return w;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let w = 0; w < this.size; w++) {
      let s = this.hashes[w]! & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = w + 1;
    }
    this.slots = slots;
  }
}

/** One file's count of each word on its added and its removed lines, by word number; cleared for the next file. */
export class FileCounts {
  private added = new Int32Array(1 << 12);
  private removed = new Int32Array(1 << 12);
  private met: number[] = [];

  add(w: number, removed: boolean): void {
    if (w >= this.added.length) {
      this.added = grown(this.added, Math.max(w + 1, this.added.length * 2));
      this.removed = grown(this.removed, this.added.length);
    }
    if (this.added[w] === 0 && this.removed[w] === 0) this.met.push(w);
    if (removed) this.removed[w]!++;
    else this.added[w]!++;
  }

  /** Each word met, in the order first met, with its counts. */
  forEach(onWord: (w: number, added: number, removed: number) => void): void {
    for (const w of this.met) onWord(w, this.added[w]!, this.removed[w]!);
  }

  clear(): void {
    for (const w of this.met) this.added[w] = this.removed[w] = 0;
    this.met.length = 0;
  }
}

/** A copy of `a`, `size` long, zeros after it. */
export function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
