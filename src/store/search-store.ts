/** SQL of the searches: commit messages through FTS5, and the cache of line histories. */
import { decodeIds, encodeIds } from "./code-postings.ts";
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
const BATCH_KEY = 2 ** 32;

/** Line histories kept (each a few KB): the questions an agent repeats, not every one ever asked. */
const LINE_HISTORIES = 2000;

export class SearchStore {
  private lengths = new MessageLengths();
  private reach = new ReachOrder();
  private spans?: { stamp: string; list: BatchSpan[] };

  constructor(private readonly db: SqlDatabase) {}

  /** Drops what is kept in memory (the index was emptied: commit ids start over). */
  forget(): void {
    this.lengths = new MessageLengths();
    this.reach = new ReachOrder();
    this.spans = undefined;
  }

  /**
   * Adds the messages of the commits inserted since the last call to the FTS index: commit ids
   * only grow (the table is emptied only by Store.clear, which forgets this too), so the ids
   * above messagesIndexed are exactly the new ones. Kept out of the history index, which it
   * would slow by a fifth. Call inside a write transaction; returns how many were added.
   */
  catchUpMessages(): number {
    const done = this.metaNumber("messagesIndexed");
    const max = Number(this.db.prepare("SELECT max(id) AS m FROM commit_rows").get()?.m ?? 0);
    if (max <= done) return 0;
    const n = this.db.prepare("INSERT INTO message_fts (rowid, subject, body) SELECT id, subject, body FROM message_parts WHERE id > ? AND id <= ?").run(done, max);
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('messagesIndexed', ?)").run(String(max));
    return n;
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
  private reachStamp(): string {
    const r = this.db.prepare("SELECT (SELECT value FROM meta WHERE key = 'indexedHead') AS head, (SELECT min(seq) FROM reach) AS lo, (SELECT max(seq) FROM reach) AS hi").get()!;
    return `${r.head}:${r.lo}:${r.hi}`;
  }

  /** A cached line history (JSON), marking it used. */
  lineHistory(key: string): string | undefined {
    const row = this.db.prepare("SELECT answer FROM line_histories WHERE key = ?").get(key);
    if (!row) return undefined;
    this.db.prepare("UPDATE line_histories SET used_at = ? WHERE key = ?").run(Math.floor(Date.now() / 1000), key);
    return String(row.answer);
  }

  /** Keeps a line history, forgetting the least recently used past LINE_HISTORIES. */
  saveLineHistory(key: string, answer: string): void {
    this.db.prepare("INSERT OR REPLACE INTO line_histories (key, answer, used_at) VALUES (?, ?, ?)").run(key, answer, Math.floor(Date.now() / 1000));
    this.db
      .prepare("DELETE FROM line_histories WHERE key IN (SELECT key FROM line_histories ORDER BY used_at LIMIT max(0, (SELECT count(*) FROM line_histories) - ?))")
      .run(LINE_HISTORIES);
  }

  // ---- the change index ----

  /** The change index's ids of these words, added where new. Call inside a transaction. */
  ensureCodeWords(words: string[]): number[] {
    let next = this.metaNumber("codeWords") + 1;
    const known = this.db.prepare("SELECT id FROM code_words WHERE word = ?");
    const add = this.db.prepare("INSERT INTO code_words (word, id) VALUES (?, ?)");
    const ids = words.map((w) => {
      const row = known.get(w);
      if (row) return Number(row.id);
      add.run(w, next);
      return next++;
    });
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('codeWords', ?)").run(String(next - 1));
    return ids;
  }

  /** Records one batch of the pass: each word's posting list (by word id), the commits git must confirm, and the batch's commits. Call inside a transaction. */
  saveCodePostings(lists: [number, Uint8Array][], unsure: Map<number, boolean>, commits: number[]): void {
    const batch = this.codeBatches() + 1;
    this.spans = undefined;
    this.db.prepare("INSERT INTO code_batches (batch, commits) VALUES (?, ?)").run(batch, encodeIds(commits));
    const insert = this.db.prepare("INSERT INTO code_postings (key, entries) VALUES (?, ?)");
    // In word order: a batch's lists then fill their pages.
    for (const [id, entries] of lists.sort((x, y) => x[0] - y[0])) insert.run(batch * BATCH_KEY + id, entries);
    const keep = this.db.prepare("INSERT OR REPLACE INTO code_unsure (commit_id, always) VALUES (?, ?)");
    for (const [c, always] of unsure) keep.run(c, always ? 1 : 0);
  }

  /** Every word of the change index. */
  codeWords(): string[] {
    return this.db.prepare("SELECT word FROM code_words").all().map((r) => String(r.word));
  }

  /** A value that changes whenever words are added to the change index or it starts over (for a copy of the words in memory). */
  codeWordsStamp(): string {
    return `${this.meta("codeHead") ?? ""}:${this.metaNumber("codeWords")}`;
  }

  private meta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
    return row ? String(row.value) : undefined;
  }

  private metaNumber(key: string): number {
    return Number(this.meta(key) ?? 0);
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
  private codeBatches(): number {
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

  /** Forgets the change index: the next pass fills it from the start. */
  clearCodeIndex(): void {
    this.spans = undefined;
    this.db.exec("DELETE FROM code_postings; DELETE FROM code_batches; DELETE FROM code_words; DELETE FROM code_unsure; DELETE FROM meta WHERE key IN ('codeHead', 'codeWords', 'codeBatches')");
  }

  /**
   * Before a pass: drops the batches of a pass that did not finish (the daemon stopped), whose
   * commits this pass reads again; counted twice they would be wrong.
   */
  dropUnfinishedCodeBatches(): void {
    const done = this.metaNumber("codeBatches");
    this.spans = undefined;
    this.db.prepare("DELETE FROM code_postings WHERE key >= ?").run((done + 1) * BATCH_KEY);
    this.db.prepare("DELETE FROM code_batches WHERE batch > ?").run(done);
  }

  /** After a pass: the index holds every commit reachable from `head`. */
  finishCodePass(head: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('codeBatches', ?), ('codeHead', ?)").run(String(this.codeBatches()), head);
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
}
