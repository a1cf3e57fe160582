/** SQL of the searches: commit messages through FTS5, and the cache of line histories. */
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

/** Line histories kept (each a few KB): the questions an agent repeats, not every one ever asked. */
const LINE_HISTORIES = 2000;

export class SearchStore {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Adds the messages of the commits inserted since the last call to the FTS index: commit ids
   * only grow (the table is emptied only by Store.clear, which forgets this too), so the ids
   * above messagesIndexed are exactly the new ones. Kept out of the history index, which it
   * would slow by a fifth. Call inside a write transaction; returns how many were added.
   */
  catchUpMessages(): number {
    const done = Number(this.db.prepare("SELECT value FROM meta WHERE key = 'messagesIndexed'").get()?.value ?? 0);
    const max = Number(this.db.prepare("SELECT max(id) AS m FROM commit_rows").get()?.m ?? 0);
    if (max <= done) return 0;
    const n = this.db.prepare("INSERT INTO message_fts (rowid, message) SELECT id, message FROM commits WHERE id > ? AND id <= ?").run(done, max);
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('messagesIndexed', ?)").run(String(max));
    return n;
  }

  /** Whether commits were inserted since the last catch-up (a cheap read, before taking a write lock). */
  messagesBehind(): boolean {
    const done = Number(this.db.prepare("SELECT value FROM meta WHERE key = 'messagesIndexed'").get()?.value ?? 0);
    return Number(this.db.prepare("SELECT max(id) AS m FROM commit_rows").get()?.m ?? 0) > done;
  }

  /** The best `limit` matches (by bm25, then newer first; or in git log order) and how many there are in all. */
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
    // Rank first on ids alone, then read the few commits shown: every match's message, author and
    // parents read for a count(*) over all of them made a common word cost 30 ms on 100k commits.
    const needsCommit = q.author !== undefined || q.since !== undefined || q.pathIds !== undefined;
    const ranked = this.db
      .prepare(
        `WITH m AS (SELECT rowid AS id, bm25(message_fts) AS score FROM message_fts WHERE message_fts MATCH ?1)
         SELECT m.id AS id, m.score AS score, s.seq AS seq
           FROM m JOIN ${q.scope} s ON s.commit_id = m.id${needsCommit ? " JOIN commits c ON c.id = m.id" : ""}
          ${where.length ? "WHERE " + where.join(" AND ") : ""}`,
      )
      .all(...params)
      .map((r) => ({ id: Number(r.id), score: Number(r.score), seq: Number(r.seq) }));
    ranked.sort(q.newest ? (x, y) => x.seq - y.seq : (x, y) => x.score - y.score || x.seq - y.seq);
    const shown = q.limit === undefined ? ranked : ranked.slice(0, Math.floor(q.limit));
    const facts = new Map(
      this.db
        .prepare("SELECT c.id, c.sha, c.author, c.time, c.subject, c.message, instr(c.parents, ' ') > 0 AS merge FROM json_each(?) j JOIN commits c ON c.id = j.value")
        .all(JSON.stringify(shown.map((r) => r.id)))
        .map((r) => [Number(r.id), { id: Number(r.id), sha: String(r.sha), author: String(r.author), time: Number(r.time), subject: String(r.subject), message: String(r.message), merge: Number(r.merge) === 1 }]),
    );
    return { hits: shown.map((r) => facts.get(r.id)!), total: ranked.length };
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

  /**
   * Records one batch of the pass: each word's commits (ids), and the commits that changed a
   * binary file. `ids` remembers word ids for the length of one pass. Call inside a transaction.
   */
  saveCodePostings(postings: Map<string, number[]>, binary: number[], ids: Map<string, number>): void {
    const batch = Number(this.db.prepare("SELECT coalesce(max(batch), 0) + 1 AS b FROM code_postings").get()!.b);
    const insert = this.db.prepare("INSERT INTO code_postings (word_id, batch, commits) VALUES (?, ?, ?)");
    for (const [w, commits] of postings) {
      let id = ids.get(w);
      if (id === undefined) {
        const row = this.db.prepare("SELECT id FROM code_words WHERE word = ?").get(w) ?? this.db.prepare("INSERT INTO code_words (word) VALUES (?) RETURNING id").get(w)!;
        id = Number(row.id);
        ids.set(w, id);
      }
      insert.run(id, batch, encodeIds(commits));
    }
    const bin = this.db.prepare("INSERT OR IGNORE INTO code_binary (commit_id) VALUES (?)");
    for (const c of binary) bin.run(c);
  }

  /**
   * The commits of the scope whose change of some word containing `text` (or of a binary file)
   * may have changed how often `text` occurs: a superset of what git log -S finds, in git log order.
   */
  codeCandidates(scope: string, text: string): string[] {
    // The words first (a scan of the distinct words), then their posting lists by the primary key.
    const words = this.db.prepare("SELECT id FROM code_words WHERE instr(word, ?) > 0").all(text).map((r) => Number(r.id));
    const commits = new Set<number>();
    for (const r of this.db.prepare("SELECT commits FROM code_postings WHERE word_id IN (SELECT value FROM json_each(?))").all(JSON.stringify(words))) decodeIds(r.commits as Uint8Array, commits);
    for (const r of this.db.prepare("SELECT commit_id FROM code_binary").all()) commits.add(Number(r.commit_id));
    return this.db
      .prepare(`SELECT c.sha FROM json_each(?) j CROSS JOIN ${scope} s ON s.commit_id = j.value JOIN commits c ON c.id = j.value ORDER BY s.seq`)
      .all(JSON.stringify([...commits]))
      .map((r) => String(r.sha));
  }

  /** Bytes the change index takes on disk (its tables and indexes), where SQLite can say (dbstat). */
  codeIndexBytes(): number | undefined {
    try {
      const r = this.db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name IN ('code_words', 'code_postings', 'code_binary', 'sqlite_autoindex_code_words_1')").get();
      return r ? Number(r.n) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Ascending ids as varints of their differences (LEB128): one or two bytes each in a posting list. */
export function encodeIds(ids: number[]): Uint8Array {
  const out: number[] = [];
  let last = 0;
  for (const id of ids) {
    let d = id - last;
    last = id;
    while (d >= 0x80) {
      out.push((d & 0x7f) | 0x80);
      d = Math.floor(d / 128);
    }
    out.push(d);
  }
  return Uint8Array.from(out);
}

export function decodeIds(bytes: Uint8Array, into: Set<number>): void {
  let last = 0;
  let d = 0;
  let shift = 1;
  for (const b of bytes) {
    d += (b & 0x7f) * shift;
    if (b & 0x80) shift *= 128;
    else {
      last += d;
      into.add(last);
      d = 0;
      shift = 1;
    }
  }
}
