/** SQL for the repository-level questions: commits in the order of history, and the files each changed. */
import type { SqlDatabase } from "../runtime/index.ts";

export interface LogCommitRow {
  seq: number;
  id: number;
  sha: string;
  parents: string;
  author: string;
  email: string;
  time: number;
  commit_time: number;
  subject: string;
  nfiles: number;
  churn: number;
}

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
        `SELECT s.seq, c.id, c.sha, c.parents, c.author, c.email, c.time, c.commit_time, c.subject, c.nfiles, c.churn
           FROM ${scope} s JOIN commits c ON c.id = s.commit_id WHERE s.seq > ? ORDER BY s.seq LIMIT ?`,
      )
      .all(after, count) as unknown as LogCommitRow[];
  }

  /** The commits with these full shas (any order). */
  bySha(shas: string[]): LogCommitRow[] {
    return this.db
      .prepare(
        `SELECT 0 AS seq, c.id, c.sha, c.parents, c.author, c.email, c.time, c.commit_time, c.subject, c.nfiles, c.churn
           FROM json_each(?) j JOIN commits c ON c.sha = j.value`,
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

  /** The full message of a commit. */
  message(id: number): string {
    return String(this.db.prepare("SELECT message FROM commits WHERE id = ?").get(id)?.message ?? "");
  }
}
