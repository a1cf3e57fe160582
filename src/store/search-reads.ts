/** SQL that reads the searches' tables: commit messages through FTS5, the change index, and the order of history they rank by; the writes are search-store.ts. */
import { decodeIds } from "./code-postings.ts";
import { bestMatches, MessageLengths, ReachOrder } from "./message-order.ts";
import type { SqlDatabase, SqlValue } from "../runtime/index.ts";

export interface MessageSearch {
  /** The scope table (reach or a time-travel scope). */
  scope: string;
  /** An FTS5 query lore built (never the user's text as typed). */
  match: string;
  /** Substring of "Name <email>", case-insensitive (git log -i -F --author). */
  author?: string;
  /** Committer time, Unix seconds, at or after (git log --since). */
  since?: number;
  /** Path ids: only commits that changed one of them (as the new or the old name), and merges (the index has no diff of theirs: git decides). */
  pathIds?: number[];
  /** git log order instead of relevance. */
  newest: boolean;
  /** At most this many; undefined for all of them. */
  limit?: number;
}

export interface MessageHit {
  id: number;
  sha: string;
  author: string;
  time: number;
  subject: string;
  message: string;
  merge: boolean;
}

/** A batch of the change index: the places in history (ReachOrder's rank) of its newest and oldest commit reachable from the head, and how many are. */
export interface BatchSpan {
  batch: number;
  newest: number;
  oldest: number;
  commits: number;
}

/** A posting list's key: its batch × BATCH_KEY + the word's id. */
export const BATCH_KEY = 2 ** 32;

export class SearchReads {
  protected lengths = new MessageLengths();
  protected reach = new ReachOrder();
  protected spans?: { stamp: string; list: BatchSpan[] };

  constructor(protected readonly db: SqlDatabase) {}

  /** Drops what is kept in memory (the index was emptied: commit ids start over). */
  forget(): void {
    this.lengths = new MessageLengths();
    this.reach = new ReachOrder();
    this.spans = undefined;
  }

  /** Whether commits were inserted since the last catch-up (a cheap read, before taking a write lock). */
  messagesBehind(): boolean {
    const done = this.metaNumber("messagesIndexed");
    return Number(this.db.prepare("SELECT max(id) AS m FROM commit_rows").get()?.m ?? 0) > done;
  }

  /**
   * The best `limit` matches (every word in the subject first, then shorter, then newer; or in git
   * log order) and how many there are in all. SQLite finds the matches; their order comes from
   * lengths and places in history kept in memory (message-order.ts).
   */
  messages(q: MessageSearch): { hits: MessageHit[]; total: number } {
    const params: SqlValue[] = [q.match];
    const p = (v: SqlValue) => `?${params.push(v)}`;
    const where: string[] = [];
    if (q.author !== undefined) where.push(`instr(lower(c.author || ' <' || c.email || '>'), lower(${p(q.author)})) > 0`);
    if (q.since !== undefined) where.push(`c.commit_time >= ${p(q.since)}`);
    if (q.pathIds !== undefined) {
      const ids = `(SELECT value FROM json_each(${p(JSON.stringify(q.pathIds))}))`;
      where.push(`(EXISTS (SELECT 1 FROM changes ch WHERE ch.commit_id = c.id AND (ch.path_id IN ${ids} OR ch.old_path_id IN ${ids})) OR instr(c.parents, ' ') > 0)`);
    }
    const needsCommit = q.author !== undefined || q.since !== undefined || q.pathIds !== undefined;
    // The order of history from the head is in memory; another scope's comes with the matches.
    const reach = q.scope === "reach";
    const joins = (reach ? "" : ` JOIN ${q.scope} s ON s.commit_id = m.rowid`) + (needsCommit ? " JOIN commits c ON c.id = m.rowid" : "");
    const from = `FROM message_fts m${joins} WHERE message_fts MATCH ?1${where.map((w) => ` AND ${w}`).join("")}`;
    const ids: number[] = [];
    const rank: number[] = [];
    if (reach) {
      const ranks = this.reachRanks();
      for (const v of this.db.prepare(`SELECT m.rowid ${from}`).column(...params)) {
        const place = ranks[Number(v)] ?? 0;
        if (place === 0) continue;
        ids.push(Number(v));
        rank.push(place);
      }
    } else {
      const rows = this.db.prepare(`SELECT m.rowid AS id, s.seq AS seq ${from}`).all(...params);
      let min = 0;
      for (const r of rows) min = Math.min(min, Number(r.seq));
      for (const r of rows) {
        ids.push(Number(r.id));
        rank.push(Number(r.seq) - min + 1);
      }
    }
    let inSubject = new Set<number>();
    if (!q.newest) {
      this.lengths.update(this.db, this.metaNumber("messagesIndexed"));
      inSubject = new Set(this.db.prepare("SELECT rowid FROM message_fts WHERE message_fts MATCH ?").column(`subject : (${q.match})`).map(Number));
    }
    const shown = bestMatches(ids, rank, inSubject, this.lengths, q.newest, q.limit);
    const facts = new Map(
      this.db
        .prepare("SELECT c.id, c.sha, c.author, c.time, c.subject, c.message, instr(c.parents, ' ') > 0 AS merge FROM json_each(?) j JOIN commits c ON c.id = j.value")
        .all(JSON.stringify(shown))
        .map((r) => [Number(r.id), { id: Number(r.id), sha: String(r.sha), author: String(r.author), time: Number(r.time), subject: String(r.subject), message: String(r.message), merge: Number(r.merge) === 1 }]),
    );
    return { hits: shown.map((id) => facts.get(id)!), total: ids.length };
  }

  /** Each commit's place in the order of history from the head (1 is the newest; 0: not reachable), by commit id. */
  reachRanks(): Int32Array {
    this.reach.update(this.db, this.reachStamp());
    return this.reach.rank;
  }

  /** Changes whenever the order of history from the head may have: the head, and the order's ends. */
  protected reachStamp(): string {
    const r = this.db.prepare("SELECT (SELECT value FROM meta WHERE key = 'indexedHead') AS head, (SELECT min(seq) FROM reach) AS lo, (SELECT max(seq) FROM reach) AS hi").get()!;
    return `${r.head}:${r.lo}:${r.hi}`;
  }

  /** Every word of the change index. */
  codeWords(): string[] {
    return this.db.prepare("SELECT word FROM code_words").all().map((r) => String(r.word));
  }

  /** A value that changes whenever words are added to the change index or it starts over (for a copy of the words in memory). */
  codeWordsStamp(): string {
    return `${this.meta("codeHead") ?? ""}:${this.metaNumber("codeWords")}`;
  }

  /** The ids of those of `words` the change index has. */
  codeWordIds(words: string[]): { word: string; id: number }[] {
    return this.db
      .prepare("SELECT w.word, w.id FROM json_each(?) j JOIN code_words w ON w.word = j.value")
      .all(JSON.stringify(words))
      .map((r) => ({ word: String(r.word), id: Number(r.id) }));
  }

  /** The posting lists one batch holds of these words. */
  codeLists(batch: number, wordIds: number[]): { wordId: number; entries: Uint8Array }[] {
    return this.db
      .prepare("SELECT p.key, p.entries FROM json_each(?) j CROSS JOIN code_postings p ON p.key = ? + j.value")
      .all(JSON.stringify(wordIds), batch * BATCH_KEY)
      .map((r) => ({ wordId: Number(r.key) - batch * BATCH_KEY, entries: r.entries as Uint8Array }));
  }

  /**
   * The order of history (reachRanks) and each batch of the change index (BatchSpan), the spans
   * kept in memory until the order or the index changes (this store's writes drop them): what a
   * code search reads before any posting, from one look at the order's stamp.
   */
  codeIndexView(): { rank: Int32Array; spans: BatchSpan[] } {
    const order = this.reachStamp();
    this.reach.update(this.db, order);
    const rank = this.reach.rank;
    const stamp = `${order}:${this.meta("codeHead")}:${this.codeBatches()}`;
    if (this.spans?.stamp !== stamp) {
      const list: BatchSpan[] = [];
      for (const r of this.db.prepare("SELECT batch, commits FROM code_batches").all()) {
        const span = { batch: Number(r.batch), newest: Infinity, oldest: 0, commits: 0 };
        for (const id of decodeIds(r.commits as Uint8Array)) {
          const at = rank[id] ?? 0;
          if (at === 0) continue;
          span.newest = Math.min(span.newest, at);
          span.oldest = Math.max(span.oldest, at);
          span.commits++;
        }
        if (span.commits > 0) list.push(span);
      }
      this.spans = { stamp, list };
    }
    return { rank, spans: this.spans.list };
  }

  /** How many batches the pass wrote (they are numbered from 1). */
  protected codeBatches(): number {
    return Number(this.db.prepare("SELECT max(batch) AS b FROM code_batches").get()?.b ?? 0);
  }

  /** Commits git must confirm: true for those a candidate of every search. */
  codeUnsure(): Map<number, boolean> {
    return new Map(this.db.prepare("SELECT commit_id, always FROM code_unsure").all().map((r) => [Number(r.commit_id), Number(r.always) === 1]));
  }

  /** A commit's changes as the history index holds them, in the order git's diff lists them (by path, bytewise). */
  diffOrder(commitId: number): { path: string; oldPath?: string }[] {
    return this.db
      .prepare("SELECT p.path, op.path AS old FROM changes ch JOIN paths p ON p.id = ch.path_id LEFT JOIN paths op ON op.id = ch.old_path_id WHERE ch.commit_id = ? ORDER BY p.path")
      .all(commitId)
      .map((r) => (r.old === null ? { path: String(r.path) } : { path: String(r.path), oldPath: String(r.old) }));
  }

  /** What an answer shows of commits, by id. */
  commitFacts(ids: number[]): Map<number, { sha: string; author: string; time: number; subject: string }> {
    return new Map(
      this.db
        .prepare("SELECT c.id, c.sha, c.author, c.time, c.subject FROM json_each(?) j JOIN commits c ON c.id = j.value")
        .all(JSON.stringify(ids))
        .map((r) => [Number(r.id), { sha: String(r.sha), author: String(r.author), time: Number(r.time), subject: String(r.subject) }]),
    );
  }

  /** Bytes the change index takes on disk (its tables and indexes), where SQLite can say (dbstat). */
  codeIndexBytes(): number | undefined {
    try {
      const r = this.db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name IN ('code_words', 'code_postings', 'code_batches', 'code_unsure')").get();
      return r ? Number(r.n) : undefined;
    } catch {
      return undefined;
    }
  }

  protected meta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
    return row ? String(row.value) : undefined;
  }

  protected metaNumber(key: string): number {
    return Number(this.meta(key) ?? 0);
  }
}
