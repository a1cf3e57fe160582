/** SQL for the repository-level questions: commits in the order of history, and the files each changed. */
import type { SqlDatabase } from "../runtime/index.ts";
import type { CommitRow } from "./history-store.ts";

/** A commit as log walks it: its place in the order of history, and the columns log shows (no message). */
export type LogCommitRow = Pick<CommitRow, "id" | "sha" | "parents" | "author" | "email" | "time" | "commit_time" | "subject"> & { seq: number };

export interface LogChangeRow {
  commit_id: number;
  path: string;
  old_path: string | null;
  status: string;
  additions: number | null;
  deletions: number | null;
}

export class LogStore {
  constructor(private readonly db: SqlDatabase) {}

  /** Up to `count` commits of a scope strictly after seq `after`, in order. */
  walk(scope: string, after: number, count: number): LogCommitRow[] {
    return this.db
      .prepare(
        // Only columns stored before message: reading past a long message costs its overflow pages.
        `SELECT s.seq, c.id, c.sha, c.parents, c.author, c.email, c.time, c.commit_time, c.subject
           FROM ${scope} s JOIN commits c ON c.id = s.commit_id WHERE s.seq > ? ORDER BY s.seq LIMIT ?`,
      )
      .all(after, count) as unknown as LogCommitRow[];
  }

  /** The commits with these full shas (any order). */
  bySha(shas: string[]): LogCommitRow[] {
    return this.db
      .prepare(
        `SELECT 0 AS seq, c.id, c.sha, c.parents, c.author, c.email, c.time, c.commit_time, c.subject
           FROM json_each(?) j JOIN commit_rows r ON r.sha = unhex(j.value) JOIN commits c ON c.id = r.id`,
      )
      .all(JSON.stringify(shas)) as unknown as LogCommitRow[];
  }

  /** The changes of these commits, each commit's in path order (byte order: git's order). */
  changesOf(commitIds: number[]): LogChangeRow[] {
    return this.db
      .prepare(
        `SELECT ch.commit_id, p.path, op.path AS old_path, ch.status, ch.additions, ch.deletions
           FROM json_each(?) j JOIN changes ch ON ch.commit_id = j.value
           JOIN paths p ON p.id = ch.path_id LEFT JOIN paths op ON op.id = ch.old_path_id
          ORDER BY ch.commit_id, p.path`,
      )
      .all(JSON.stringify(commitIds)) as unknown as LogChangeRow[];
  }

  /** True when some indexed path is `path` or lies under it (a range scan of the paths' unique index). */
  knownPath(path: string): boolean {
    const next = path + "0"; // "0" follows "/" in byte order
    return this.db.prepare("SELECT 1 AS x FROM paths WHERE path = ? OR (path > ? AND path < ?) LIMIT 1").get(path, path + "/", next) !== undefined;
  }

  /** The commits that changed a path that is, or lies under, one of `paths` (its new name or its old). */
  touching(paths: string[]): Set<number> {
    const ids = this.db
      .prepare("SELECT p.id FROM json_each(?) j JOIN paths p ON p.path = j.value OR (p.path > j.value || '/' AND p.path < j.value || '0')")
      .all(JSON.stringify(paths))
      .map((r) => Number(r.id));
    const json = JSON.stringify(ids);
    const rows = this.db
      .prepare(
        `SELECT ch.commit_id FROM json_each(?) j JOIN changes ch ON ch.path_id = j.value
         UNION SELECT ch.commit_id FROM json_each(?) j JOIN changes ch ON ch.old_path_id = j.value`,
      )
      .all(json, json);
    return new Set(rows.map((r) => Number(r.commit_id)));
  }

  /** How many parents of each of these merges have their changed paths stored (merges not listed: none). */
  /** Every merge of the indexed history (reach order), with how many of its parents its paths are stored against. */
  mergesOfReach(): { id: number; sha: string; parents: string; diffed: number }[] {
    return this.db
      .prepare(
        `SELECT c.id, c.sha, c.parents, coalesce(d.parents, 0) AS diffed
           FROM reach s JOIN commits c ON c.id = s.commit_id LEFT JOIN merge_diffs d ON d.commit_id = c.id
          WHERE instr(c.parents, ' ') > 0 ORDER BY s.seq`,
      )
      .all()
      .map((r) => ({ id: Number(r.id), sha: String(r.sha), parents: String(r.parents), diffed: Number(r.diffed) }));
  }

  mergesDiffed(commitIds: number[]): Map<number, number> {
    const rows = this.db.prepare("SELECT d.commit_id, d.parents FROM json_each(?) j JOIN merge_diffs d ON d.commit_id = j.value").all(JSON.stringify(commitIds));
    return new Map(rows.map((r) => [Number(r.commit_id), Number(r.parents)]));
  }

  /** Stores a merge's changed paths against its parents from index `from` on, then `upTo` parents are done. Call inside a transaction. */
  saveMergePaths(commitId: number, from: number, byParent: number[][], upTo: number): void {
    const insert = this.db.prepare("INSERT OR IGNORE INTO merge_paths (commit_id, parent, path_id) VALUES (?, ?, ?)");
    byParent.forEach((pathIds, i) => {
      for (const id of pathIds) insert.run(commitId, from + i, id);
    });
    this.db.prepare("INSERT OR REPLACE INTO merge_diffs (commit_id, parents) VALUES (?, ?)").run(commitId, upTo);
  }

  /** The parents (by index) a merge changed a path against that is, or lies under, one of `paths`. */
  mergeDiffers(commitId: number, paths: string[]): Set<number> {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT mp.parent FROM merge_paths mp JOIN paths p ON p.id = mp.path_id
          WHERE mp.commit_id = ? AND EXISTS (SELECT 1 FROM json_each(?) j WHERE p.path = j.value OR (p.path > j.value || '/' AND p.path < j.value || '0'))`,
      )
      .all(commitId, JSON.stringify(paths));
    return new Set(rows.map((r) => Number(r.parent)));
  }

  /** The full message of a commit. */
  message(id: number): string {
    return String(this.db.prepare("SELECT message FROM commits WHERE id = ?").get(id)?.message ?? "");
  }
}
