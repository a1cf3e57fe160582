/**
 * Reads `git log -p -U0 --format=%x1e%H` as bytes, line by line, and hands each file on as soon
 * as it is read with the count of each word on its added and removed lines: only one file's counts
 * are held at a time, however large the commit (a first commit of 20,000 files, held whole, took
 * 170 MB at once).
 */
import { FileCounts, type WordTable } from "./word-table.ts";

export interface FilePatch {
  /** The file's place in the commit's diff. */
  ord: number;
  /** The "diff --git" line (latin1). */
  header: string;
  binary: boolean;
  /** Old and new blob ids (the index line), when the patch has one. */
  blobs?: [string, string];
  /** Its words' counts: valid only during the sink's call (they are cleared for the next file). */
  counts: FileCounts;
}

/** What the pass does with the patch as it is read: a commit begins, one of its files is read whole, the commit ends. */
export interface PatchSink {
  commit(sha: string): void;
  file(f: FilePatch): void;
  endCommit(): void;
}

const SHA = /^[0-9a-f]{40,64}$/;
const DIFF = Buffer.from("diff --git ", "latin1");
const INDEX = Buffer.from("index ", "latin1");
const BINARY = Buffer.from("Binary files ", "latin1");
const GIT_BINARY = Buffer.from("GIT binary patch", "latin1");

function startsWith(b: Buffer, s: number, e: number, prefix: Buffer): boolean {
  return e - s >= prefix.length && b.compare(prefix, 0, prefix.length, s, s + prefix.length) === 0;
}

export class PatchWordsParser {
  /** The start of a line the last chunk cut (a copy). */
  private carry: Buffer | null = null;
  private inCommit = false;
  private file: Omit<FilePatch, "counts"> | null = null;
  private files = 0;
  private inHunks = false;
  private readonly counts = new FileCounts();
  /** Whether the line being read is a removed one, for onWord (one function for every line, no closure each). */
  private removedLine = false;
  private readonly onWord = (w: number) => this.counts.add(w, this.removedLine);

  constructor(
    private readonly table: WordTable,
    private readonly sink: PatchSink,
  ) {}

  push(chunk: Uint8Array): void {
    const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let pos = 0;
    if (this.carry) {
      const nl = b.indexOf(10);
      if (nl < 0) {
        this.carry = Buffer.concat([this.carry, b]);
        return;
      }
      const line = Buffer.concat([this.carry, b.subarray(0, nl)]);
      this.carry = null;
      this.line(line, 0, line.length);
      pos = nl + 1;
    }
    for (let nl = b.indexOf(10, pos); nl >= 0; nl = b.indexOf(10, pos)) {
      this.line(b, pos, nl);
      pos = nl + 1;
    }
    if (pos < b.length) this.carry = Buffer.from(b.subarray(pos));
  }

  end(): void {
    if (this.carry) this.line(this.carry, 0, this.carry.length);
    this.carry = null;
    this.endCommit();
  }

  private endFile(): void {
    if (this.file) this.sink.file({ ...this.file, counts: this.counts });
    this.counts.clear();
    this.file = null;
  }

  private endCommit(): void {
    this.endFile();
    if (this.inCommit) this.sink.endCommit();
    this.inCommit = false;
  }

  private line(b: Buffer, s: number, e: number): void {
    const c = e > s ? b[s]! : -1;
    if (c === 0x1e) {
      const sha = b.toString("latin1", s + 1, e);
      if (SHA.test(sha)) {
        this.endCommit();
        this.inCommit = true;
        this.files = 0;
        this.sink.commit(sha);
      }
      return;
    }
    if (!this.inCommit) return;
    if (startsWith(b, s, e, DIFF)) {
      this.endFile();
      this.file = { ord: this.files++, header: b.toString("latin1", s, e), binary: false };
      this.inHunks = false;
      return;
    }
    const file = this.file;
    if (!file) return;
    if (!this.inHunks) {
      if (c === 0x40 && b[s + 1] === 0x40) this.inHunks = true;
      else if (startsWith(b, s, e, INDEX)) {
        const m = /^index ([0-9a-f]+)\.\.([0-9a-f]+)/.exec(b.toString("latin1", s, e));
        if (m) file.blobs = [m[1]!, m[2]!];
      } else if (startsWith(b, s, e, BINARY) || startsWith(b, s, e, GIT_BINARY)) file.binary = true;
      return;
    }
    if (c !== 0x2b && c !== 0x2d) return;
    this.removedLine = c === 0x2d;
    this.table.forEachWord(b, s + 1, e, this.onWord);
  }
}
