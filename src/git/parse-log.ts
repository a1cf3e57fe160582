/** Streaming parsers for `git log --raw -z` and `git log --numstat -z` in lore's record format. */
import type { ChangeStatus, CommitRecord, FileChange, NumstatEntry, NumstatRecord } from "./records.ts";
import { fromLatin1 } from "./paths.ts";

/** The --format lore asks for: one 0x1e, then NUL-terminated fields. */
export const LOG_FORMAT = "%x1e%H%x00%P%x00%aN%x00%aE%x00%at%x00%ct%x00%s%x00%B%x00";
const LOG_FIELDS = 8;
export const NUMSTAT_FORMAT = "%x1e%H%x00";

/*
 * Both parsers read the bytes as latin1 text (one char per byte, nothing lost), find
 * separators with indexOf on the string, and decode names and messages from UTF-8 only
 * where a field is not plain ASCII. That is several times faster than slicing buffers.
 */

/** A cursor over text that grows chunk by chunk; `pos` only moves past whole records. */
abstract class ChunkedParser<R> {
  protected text = "";
  protected current: R | null = null;

  /** Parses what it can of `chunk`; returns the records known to be complete. */
  push(chunk: Uint8Array): R[] {
    this.text += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    const done: R[] = [];
    const pos = this.parse(done);
    this.text = this.text.slice(pos);
    return done;
  }

  /** Call at the end of the stream: returns the last record. */
  end(): R[] {
    if (this.text.length > 0) throw new Error("git log output ended in the middle of a record");
    const last = this.current;
    this.current = null;
    return last ? [last] : [];
  }

  /** Parses complete records from `this.text`, pushing finished ones; returns how far it got. */
  protected abstract parse(done: R[]): number;

  /** Reads `count` NUL-terminated fields from `pos`; null when the text ends first. */
  protected fields(pos: number, count: number): { values: string[]; next: number } | null {
    const values: string[] = [];
    let p = pos;
    for (let k = 0; k < count; k++) {
      const end = this.text.indexOf("\0", p);
      if (end < 0) return null;
      values.push(this.text.slice(p, end));
      p = end + 1;
    }
    return { values, next: p };
  }
}

/** Incremental parser of `git log --raw -z --format=LOG_FORMAT`: feed chunks, get whole commits. */
export class RawLogParser extends ChunkedParser<CommitRecord> {
  protected parse(done: CommitRecord[]): number {
    const t = this.text;
    let pos = 0;
    while (pos < t.length) {
      const ch = t.charCodeAt(pos);
      if (ch === 0x1e) {
        const f = this.fields(pos + 1, LOG_FIELDS);
        if (!f) break;
        if (this.current) done.push(this.current);
        const [sha, parents, author, email, at, ct, subject, message] = f.values as [string, string, string, string, string, string, string, string];
        this.current = {
          sha,
          parents: parents ? parents.split(" ") : [],
          author: fromLatin1(author),
          email: fromLatin1(email),
          time: Number(at),
          commitTime: Number(ct),
          subject: fromLatin1(subject),
          message: fromLatin1(message).replace(/\n+$/, ""),
          changes: [],
        };
        pos = f.next;
      } else if (ch === 0x3a) {
        // ":100644 100644 <old> <new> M\0path\0", and for R/C a second path.
        const head = t.indexOf("\0", pos);
        if (head < 0) break;
        const meta = t.slice(pos + 1, head).split(" ");
        const statusField = meta[4] ?? "";
        const status = statusField[0] as ChangeStatus;
        const two = status === "R" || status === "C";
        const f = this.fields(head + 1, two ? 2 : 1);
        if (!f) break;
        const change: FileChange = { status, path: fromLatin1(f.values[two ? 1 : 0]!), oldMode: meta[0]!, newMode: meta[1]!, oldBlob: meta[2]!, newBlob: meta[3]! };
        if (two) {
          change.oldPath = fromLatin1(f.values[0]!);
          change.score = Number(statusField.slice(1)) || 0;
        }
        this.current?.changes.push(change);
        pos = f.next;
      } else if (ch === 0 || ch === 0x0a) {
        pos++;
      } else {
        throw new Error(`unexpected byte 0x${ch.toString(16)} in git log output`);
      }
    }
    return pos;
  }
}

function count(s: string): number | null {
  return s === "-" ? null : Number(s); // "-": binary
}

/** Incremental parser of `git log --numstat -z --format=NUMSTAT_FORMAT`. */
export class NumstatParser extends ChunkedParser<NumstatRecord> {
  protected parse(done: NumstatRecord[]): number {
    const t = this.text;
    let pos = 0;
    while (pos < t.length) {
      const ch = t.charCodeAt(pos);
      if (ch === 0x1e) {
        const end = t.indexOf("\0", pos + 1);
        if (end < 0) break;
        if (this.current) done.push(this.current);
        this.current = { sha: t.slice(pos + 1, end), entries: [] };
        pos = end + 1;
      } else if (ch === 0 || ch === 0x0a) {
        pos++;
      } else {
        // "ADD\tDEL\tpath\0" or, for a rename, "ADD\tDEL\t\0old\0new\0".
        const tab1 = t.indexOf("\t", pos);
        const tab2 = tab1 < 0 ? -1 : t.indexOf("\t", tab1 + 1);
        if (tab2 < 0 || tab2 + 1 >= t.length) break;
        const entry: NumstatEntry = { path: "", additions: count(t.slice(pos, tab1)), deletions: count(t.slice(tab1 + 1, tab2)) };
        if (t.charCodeAt(tab2 + 1) === 0) {
          const f = this.fields(tab2 + 2, 2);
          if (!f) break;
          entry.oldPath = fromLatin1(f.values[0]!);
          entry.path = fromLatin1(f.values[1]!);
          pos = f.next;
        } else {
          const end = t.indexOf("\0", tab2 + 1);
          if (end < 0) break;
          entry.path = fromLatin1(t.slice(tab2 + 1, end));
          pos = end + 1;
        }
        this.current?.entries.push(entry);
      }
    }
    return pos;
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
