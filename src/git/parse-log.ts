/** Streaming parsers for `git log --raw -z` and `git log --numstat -z` in lore's record format. */
import type { ChangeStatus, CommitRecord, FileChange, NumstatEntry, NumstatRecord } from "./records.ts";
import { decodePath } from "./paths.ts";

/** The --format lore asks for: one 0x1e, then NUL-terminated fields. */
export const LOG_FORMAT = "%x1e%H%x00%P%x00%aN%x00%aE%x00%at%x00%ct%x00%s%x00%B%x00";
const LOG_FIELDS = 8;
export const NUMSTAT_FORMAT = "%x1e%H%x00";

const RS = 0x1e;
const NUL = 0;
const LF = 0x0a;
const COLON = 0x3a;

/** Concatenates a leftover and a new chunk. */
function join(rest: Buffer, chunk: Uint8Array): Buffer {
  const c = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return rest.length === 0 ? c : Buffer.concat([rest, c]);
}

/** Reads `count` NUL-terminated fields from `pos`; null when the buffer ends first. */
function fields(buf: Buffer, pos: number, count: number): { values: Buffer[]; next: number } | null {
  const values: Buffer[] = [];
  let p = pos;
  for (let k = 0; k < count; k++) {
    const end = buf.indexOf(NUL, p);
    if (end < 0) return null;
    values.push(buf.subarray(p, end));
    p = end + 1;
  }
  return { values, next: p };
}

function text(b: Buffer): string {
  return b.toString("utf8");
}

/** Parses one raw entry (":100644 100644 a b M\0path\0") at `pos`; null if incomplete. */
function rawEntry(buf: Buffer, pos: number): { change: FileChange; next: number } | null {
  const head = buf.indexOf(NUL, pos);
  if (head < 0) return null;
  const meta = buf.toString("latin1", pos + 1, head).split(" ");
  const statusField = meta[4] ?? "";
  const status = statusField[0] as ChangeStatus;
  const two = status === "R" || status === "C";
  const f = fields(buf, head + 1, two ? 2 : 1);
  if (!f) return null;
  const change: FileChange = {
    status,
    path: decodePath(f.values[two ? 1 : 0]!),
    oldMode: meta[0]!,
    newMode: meta[1]!,
    oldBlob: meta[2]!,
    newBlob: meta[3]!,
  };
  if (two) {
    change.oldPath = decodePath(f.values[0]!);
    change.score = Number(statusField.slice(1)) || 0;
  }
  return { change, next: f.next };
}

/** Incremental parser of `git log --raw -z --format=LOG_FORMAT`: feed chunks, get whole commits. */
export class RawLogParser {
  private rest: Buffer = Buffer.alloc(0);
  private current: CommitRecord | null = null;

  /** Parses what it can of `chunk`; returns the commits known to be complete. */
  push(chunk: Uint8Array): CommitRecord[] {
    const buf = join(this.rest, chunk);
    const done: CommitRecord[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const b = buf[pos]!;
      if (b === RS) {
        const f = fields(buf, pos + 1, LOG_FIELDS);
        if (!f) break;
        if (this.current) done.push(this.current);
        const [sha, parents, author, email, at, ct, subject, message] = f.values.map(text);
        this.current = {
          sha: sha!,
          parents: parents ? parents.split(" ") : [],
          author: author!,
          email: email!,
          time: Number(at),
          commitTime: Number(ct),
          subject: subject!,
          message: message!.replace(/\n+$/, ""),
          changes: [],
        };
        pos = f.next;
      } else if (b === COLON) {
        const e = rawEntry(buf, pos);
        if (!e) break;
        this.current?.changes.push(e.change);
        pos = e.next;
      } else if (b === NUL || b === LF) {
        pos++;
      } else {
        throw new Error(`unexpected byte 0x${b.toString(16)} in git log output at ${pos}`);
      }
    }
    this.rest = Buffer.from(buf.subarray(pos));
    return done;
  }

  /** Call at the end of the stream: returns the last commit. */
  end(): CommitRecord[] {
    if (this.rest.length > 0) throw new Error("git log output ended in the middle of a record");
    const last = this.current;
    this.current = null;
    return last ? [last] : [];
  }
}

function count(b: Buffer, from: number, to: number): number | null {
  if (to - from === 1 && b[from] === 0x2d) return null; // "-": binary
  return Number(b.toString("latin1", from, to));
}

/** Incremental parser of `git log --numstat -z --format=NUMSTAT_FORMAT`. */
export class NumstatParser {
  private rest: Buffer = Buffer.alloc(0);
  private current: NumstatRecord | null = null;

  push(chunk: Uint8Array): NumstatRecord[] {
    const buf = join(this.rest, chunk);
    const done: NumstatRecord[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const b = buf[pos]!;
      if (b === RS) {
        const end = buf.indexOf(NUL, pos + 1);
        if (end < 0) break;
        if (this.current) done.push(this.current);
        this.current = { sha: buf.toString("latin1", pos + 1, end), entries: [] };
        pos = end + 1;
      } else if (b === NUL || b === LF) {
        pos++;
      } else {
        // "ADD\tDEL\tpath\0" or, for a rename, "ADD\tDEL\t\0old\0new\0".
        const tab1 = buf.indexOf(0x09, pos);
        const tab2 = tab1 < 0 ? -1 : buf.indexOf(0x09, tab1 + 1);
        if (tab2 < 0) break;
        const entry: NumstatEntry = { path: "", additions: count(buf, pos, tab1), deletions: count(buf, tab1 + 1, tab2) };
        if (buf[tab2 + 1] === NUL) {
          const f = fields(buf, tab2 + 2, 2);
          if (!f) break;
          entry.oldPath = decodePath(f.values[0]!);
          entry.path = decodePath(f.values[1]!);
          pos = f.next;
        } else {
          const end = buf.indexOf(NUL, tab2 + 1);
          if (end < 0) break;
          entry.path = decodePath(buf.subarray(tab2 + 1, end));
          pos = end + 1;
        }
        this.current?.entries.push(entry);
      }
    }
    this.rest = Buffer.from(buf.subarray(pos));
    return done;
  }

  end(): NumstatRecord[] {
    if (this.rest.length > 0) throw new Error("git log --numstat output ended in the middle of a record");
    const last = this.current;
    this.current = null;
    return last ? [last] : [];
  }
}

/** Parses a whole `git log --raw -z` output at once (tests, small logs). */
export function parseRawLog(bytes: Uint8Array): CommitRecord[] {
  const p = new RawLogParser();
  return [...p.push(bytes), ...p.end()];
}

export function parseNumstatLog(bytes: Uint8Array): NumstatRecord[] {
  const p = new NumstatParser();
  return [...p.push(bytes), ...p.end()];
}
