/**
 * What message search ranks by, kept in memory (a daemon asks many times): each message's length
 * in words, and each commit's place in the order of history. Read per match from SQLite they cost
 * more than the match itself on a common word (7,446 matches of 100,000 messages: 4 ms of bm25).
 */
import type { SqlDatabase } from "../runtime/index.ts";

/** Lengths in words, by commit id: of the subject, and of the whole message (FTS5's docsize, one varint per column). */
export class MessageLengths {
  subject: Uint16Array = new Uint16Array(0);
  whole: Uint16Array = new Uint16Array(0);
  private upTo = 0;

  /** Reads the lengths of messages indexed since the last call; `indexed` is the highest id in the FTS index. */
  update(db: SqlDatabase, indexed: number): void {
    if (indexed < this.upTo) this.upTo = 0; // emptied and filled again by another process
    if (indexed === this.upTo) return;
    if (indexed >= this.whole.length) {
      const size = Math.max(indexed + 1, this.whole.length * 2);
      this.subject = grown(this.subject, size);
      this.whole = grown(this.whole, size);
    }
    for (const r of db.prepare("SELECT id, sz FROM message_fts_docsize WHERE id > ? AND id <= ?").all(this.upTo, indexed)) {
      const [subject, body] = varints(r.sz as Uint8Array);
      const id = Number(r.id);
      this.subject[id] = Math.min(subject ?? 0, 0xffff);
      this.whole[id] = Math.min((subject ?? 0) + (body ?? 0), 0xffff);
    }
    this.upTo = indexed;
  }
}

/** Each commit's seq in the order of history from the indexed head (smaller is newer), by commit id. */
export class ReachOrder {
  /** seq − min + 1 by commit id; 0: not reachable. */
  rank = new Int32Array(0);
  private stamp = "";

  /** Reads the order again when `stamp` (the indexed head and the order's bounds) says it changed. */
  update(db: SqlDatabase, stamp: string): void {
    if (stamp === this.stamp) return;
    const rows = db.prepare("SELECT seq, commit_id AS id FROM reach").all();
    let min = 0;
    let maxId = 0;
    for (const r of rows) {
      min = Math.min(min, Number(r.seq));
      maxId = Math.max(maxId, Number(r.id));
    }
    this.rank = new Int32Array(maxId + 1);
    for (const r of rows) this.rank[Number(r.id)] = Number(r.seq) - min + 1;
    this.stamp = stamp;
  }
}

function grown(a: Uint16Array, size: number): Uint16Array {
  const b = new Uint16Array(size);
  b.set(a);
  return b;
}

function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let v = 0;
  for (const b of bytes) {
    v = v * 128 + (b & 127);
    if (!(b & 128)) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}

/**
 * The best `limit` of the matches (all of them with no limit): every word in the subject before
 * only in the whole message; then the shorter (subject, or whole message) first; then newer first.
 * A short message that says the words is about them, as bm25 weighs length; a word said twice
 * weighs nothing more here, which costs a commit message little and saves reading each match's
 * word counts. `rank` is each match's place in history (1 is newest), unique among the matches.
 */
export function bestMatches(ids: number[], rank: number[], inSubject: Set<number>, lengths: MessageLengths, newest: boolean, limit: number | undefined): number[] {
  const n = ids.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const subject = inSubject.has(id);
    // Group, length and place packed in one number (2^17 × 2^31 < 2^53): a typed sort, no comparator.
    keys[i] = newest ? rank[i]! : ((subject ? 0 : 65536) + (subject ? lengths.subject[id]! : lengths.whole[id]!)) * 2 ** 31 + rank[i]!;
  }
  const shown = limit === undefined ? n : Math.min(n, Math.max(0, Math.floor(limit)));
  if (shown === 0) return [];
  // Keys are unique (rank is): the shown ones are those up to the shown-th smallest.
  const last = keys.slice().sort()[shown - 1]!;
  const best: [number, number][] = [];
  for (let i = 0; i < n; i++) if (keys[i]! <= last) best.push([keys[i]!, ids[i]!]);
  return best.sort((a, b) => a[0] - b[0]).map(([, id]) => id);
}
