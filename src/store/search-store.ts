/** SQL that writes the searches' tables: commit messages into FTS5, the change index, the cache of line histories; the whole store, its reads in search-reads.ts. */
import { encodeIds } from "./code-postings.ts";
import { BATCH_KEY, SearchReads } from "./search-reads.ts";

export type { BatchSpan, MessageHit, MessageSearch } from "./search-reads.ts";

/** Line histories kept (each a few KB): the questions an agent repeats, not every one ever asked. */
const LINE_HISTORIES = 2000;

export class SearchStore extends SearchReads {
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
}
