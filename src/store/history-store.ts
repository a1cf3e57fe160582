/** SQL that writes commits, the paths they touched, and the order of history (reach and scopes): the whole store, its reads in history-reads.ts. */
import type { CommitRecord, NumstatRecord } from "../git/records.ts";
import { HistoryReads, type FollowOrigin } from "./history-reads.ts";
import { objectBytes } from "./tree-store.ts";
import { ownString } from "./own-string.ts";

export type { CommitRow, FollowOrigin, PathChangeRow } from "./history-reads.ts";

/** Parents as the commits table keeps them: one or two as bytes, more (an octopus merge) as text. */
function storedParents(parents: string[]): [Uint8Array | null, string | null] {
  if (parents.length === 0) return [null, null];
  if (parents.length > 2) return [null, parents.join(" ")];
  return [Buffer.from(parents.join(""), "hex"), null];
}

/** A message as the commits table keeps it: what follows the subject, or the whole text when it does not start with it. */
function storedMessage(subject: string, message: string): [string | null, string | null] {
  if (!message.startsWith(subject)) return [null, message];
  return [message.length > subject.length ? message.slice(subject.length) : null, null];
}

export class HistoryStore extends HistoryReads {
  private readonly personIds = new Map<string, number>();

  /** Drops what is kept in memory (after the tables were emptied). */
  override forget(): void {
    super.forget();
    this.personIds.clear();
  }

  ensurePathId(path: string): number {
    const known = this.pathId(path);
    if (known !== undefined) return known;
    const row = this.db.prepare("INSERT INTO paths (path) VALUES (?) RETURNING id").get(path)!;
    this.pathIds.set(ownString(path), Number(row.id));
    return Number(row.id);
  }

  /** The id of a person (author name and email, as the mailmap gives them), stored when new: call inside a transaction. */
  personId(author: string, email: string): number {
    const k = `${author}\0${email}`;
    const known = this.personIds.get(k);
    if (known !== undefined) return known;
    let r = this.db.prepare("SELECT id FROM people WHERE author = ? AND email = ?").get(author, email);
    r ??= this.db.prepare("INSERT INTO people (author, email) VALUES (?, ?) RETURNING id").get(author, email)!;
    if (this.personIds.size >= 100_000) this.personIds.clear();
    this.personIds.set(ownString(k), Number(r.id));
    return Number(r.id);
  }

  /** Inserts a commit and its changes unless it is known; returns its id. Call inside a transaction. */
  insertCommit(c: CommitRecord): number {
    const merge = c.parents.length > 1;
    // git log shows no diff for a merge without -m: it contributes no files of its own.
    const changes = merge ? [] : c.changes;
    const row = this.db
      .prepare(
        "INSERT OR IGNORE INTO commit_rows (sha, parent_bytes, parents_text, person_id, time, commit_time, subject, message_rest, message_text, nfiles) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      )
      .get(objectBytes(c.sha), ...storedParents(c.parents), this.personId(c.author, c.email), c.time, c.commitTime, c.subject, ...storedMessage(c.subject, c.message), changes.length);
    if (!row) return this.commitId(c.sha)!;
    const id = Number(row.id);
    const insert = this.db.prepare("INSERT OR REPLACE INTO changes (commit_id, path_id, status, old_path_id) VALUES (?, ?, ?, ?)");
    for (const ch of changes) {
      insert.run(id, this.ensurePathId(ch.path), ch.status, ch.oldPath === undefined ? null : this.ensurePathId(ch.oldPath));
    }
    return id;
  }

  /** Records line churn from numstat; marks the commit's churn as known. */
  applyNumstat(rec: NumstatRecord): void {
    const id = this.commitId(rec.sha);
    if (id === undefined) return;
    const update = this.db.prepare("UPDATE changes SET additions = ?, deletions = ? WHERE commit_id = ? AND path_id = ?");
    for (const e of rec.entries) {
      const pid = this.pathId(e.path);
      if (pid !== undefined) update.run(e.additions, e.deletions, id, pid);
    }
    this.db.prepare("UPDATE commit_rows SET churn = 1 WHERE id = ?").run(id);
  }

  saveFollowOrigin(commitId: number, pathId: number, o: FollowOrigin): void {
    this.db
      .prepare("INSERT OR REPLACE INTO follow_origins (commit_id, path_id, status, old_path_id, additions, deletions) VALUES (?, ?, ?, ?, ?, ?)")
      .run(commitId, pathId, o.status, o.oldPath === null ? null : this.ensurePathId(o.oldPath), o.additions, o.deletions);
  }

  appendReach(seq: number, commitId: number): void {
    this.db.prepare("INSERT OR REPLACE INTO reach (seq, commit_id) VALUES (?, ?)").run(seq, commitId);
  }

  clearReach(): void {
    this.db.exec("DELETE FROM reach");
  }

  /** Replaces the order of history with `shas` (newest first); unknown shas are skipped and returned. */
  replaceReach(shas: string[]): string[] {
    this.clearReach();
    const missing: string[] = [];
    let seq = 0;
    for (const sha of shas) {
      const id = this.commitId(sha);
      if (id === undefined) missing.push(sha);
      else this.appendReach(seq++, id);
    }
    return missing;
  }

  /** Puts `shas` (newest first) before the current newest commit. */
  prependReach(shas: string[]): void {
    let seq = this.reachBounds().min - shas.length;
    for (const sha of shas) this.appendReach(seq++, this.commitId(sha)!);
  }

  /** A temporary scope: the given commits (newest first) in a table shaped like reach. */
  createScope(name: string, shas: string[]): string {
    const table = `temp.${name}`;
    this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    this.db.exec(`CREATE TABLE ${table} (seq INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL)`);
    const st = this.db.prepare(`INSERT INTO ${table} (seq, commit_id) VALUES (?, ?)`);
    let seq = 0;
    for (const sha of shas) {
      const id = this.commitId(sha);
      if (id !== undefined) st.run(seq++, id);
    }
    this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${name}_by_commit ON ${name} (commit_id)`);
    return name;
  }

  dropScope(name: string): void {
    this.db.exec(`DROP TABLE IF EXISTS temp.${name}`);
  }
}
