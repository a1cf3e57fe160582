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
  /** Path ids: only commits that changed one of them (as the new or the old name). */
  pathIds?: number[];
  /** git log order instead of relevance. */
  newest: boolean;
  limit: number;
}

export interface MessageHit {
  id: number;
  sha: string;
  author: string;
  time: number;
  subject: string;
}

export class SearchStore {
  constructor(private readonly db: SqlDatabase) {}

  /** The best `limit` matches (by bm25, then newer first; or in git log order) and how many there are. */
  messages(q: MessageSearch): { hits: MessageHit[]; total: number } {
    const params: SqlValue[] = [q.match];
    const p = (v: SqlValue) => `?${params.push(v)}`;
    const where: string[] = [];
    if (q.author !== undefined) where.push(`instr(lower(c.author || ' <' || c.email || '>'), lower(${p(q.author)})) > 0`);
    if (q.since !== undefined) where.push(`c.commit_time >= ${p(q.since)}`);
    if (q.pathIds !== undefined) {
      const ids = `(SELECT value FROM json_each(${p(JSON.stringify(q.pathIds))}))`;
      where.push(`EXISTS (SELECT 1 FROM changes ch WHERE ch.commit_id = c.id AND (ch.path_id IN ${ids} OR ch.old_path_id IN ${ids}))`);
    }
    const order = q.newest ? "s.seq" : "m.score, s.seq";
    const rows = this.db
      .prepare(
        `WITH m AS (SELECT rowid AS id, bm25(message_fts) AS score FROM message_fts WHERE message_fts MATCH ?1)
         SELECT c.id, c.sha, c.author, c.time, c.subject, count(*) OVER () AS total
           FROM m JOIN ${q.scope} s ON s.commit_id = m.id JOIN commits c ON c.id = m.id
          ${where.length ? "WHERE " + where.join(" AND ") : ""}
          ORDER BY ${order} LIMIT ${Math.floor(q.limit)}`,
      )
      .all(...params);
    const total = rows.length ? Number(rows[0]!.total) : 0;
    return { hits: rows.map((r) => ({ id: Number(r.id), sha: String(r.sha), author: String(r.author), time: Number(r.time), subject: String(r.subject) })), total };
  }

  /** FTS5's snippet of each commit's message for the query: matches marked «…», `tokens` words at most. */
  snippets(match: string, ids: number[], tokens: number): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = this.db
      .prepare(`SELECT rowid AS id, snippet(message_fts, 0, '«', '»', '…', ${Math.floor(tokens)}) AS s FROM message_fts WHERE message_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`)
      .all(match, JSON.stringify(ids));
    return new Map(rows.map((r) => [Number(r.id), String(r.s)]));
  }

  /** A cached line history (JSON), marking it used. */
  lineHistory(key: string): string | undefined {
    const row = this.db.prepare("SELECT answer FROM line_histories WHERE key = ?").get(key);
    if (!row) return undefined;
    this.db.prepare("UPDATE line_histories SET used_at = ? WHERE key = ?").run(Math.floor(Date.now() / 1000), key);
    return String(row.answer);
  }

  saveLineHistory(key: string, answer: string): void {
    this.db.prepare("INSERT OR REPLACE INTO line_histories (key, answer, used_at) VALUES (?, ?, ?)").run(key, answer, Math.floor(Date.now() / 1000));
  }
}
