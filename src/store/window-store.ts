/** SQL over windows of history: the newest commits of a scope, and what hotspots count in them. */
import type { SqlDatabase } from "../runtime/index.ts";

export interface ActivityRow {
  pathId: number;
  path: string;
  commits: number;
  additions: number;
  deletions: number;
  authors: number;
  last: number;
  churnUnknown: number;
  /** The file's blob in the stored tree (the indexed head), null when it is not a file there. */
  headBlob: string | null;
  /** That blob's line count: null when binary, -1 when not measured yet. */
  headLines: number | null;
}

/**
 * A window of history: the first `limit` commits of a scope (by seq), from `since` (Unix s) on;
 * with `under` (a path), only the commits that changed a file at or under it.
 */
export interface WindowSpec {
  scope: string;
  limit: number | null;
  since: number | null;
  under?: string;
  /** Commits (ids) the window leaves out: those .git-blame-ignore-revs names. */
  skip?: readonly number[];
}

/** Windows whose reading is kept in memory at most, and the largest kept (changed paths summed). */
const MEMO_WINDOWS = 6;
const MEMO_MAX_CHANGES = 50_000;

export class WindowStore {
  /** What was read of each window, with the stamp of the database it was read from. */
  private readonly memo = new Map<string, { stamp: string; value: unknown }>();

  constructor(private readonly db: SqlDatabase) {}

  /**
   * Changes whenever the database does: rows written by this connection (total_changes) or
   * commits by another one (data_version). What was read under the same stamp is still true.
   */
  private stamp(): string {
    const r = this.db.prepare("SELECT total_changes() AS n").get()!;
    const v = this.db.prepare("PRAGMA data_version").get()!;
    return `${r.n}:${v.data_version}`;
  }

  /** `read()` for this window and kind, or what it returned last while the database has not changed since. */
  private remembered<T>(kind: string, w: WindowSpec, read: () => T, size: (value: T) => number = () => 0): T {
    const key = `${kind}\0${w.scope}\0${w.limit}\0${w.since}\0${w.under ?? ""}\0${(w.skip ?? []).join(",")}`;
    const stamp = this.stamp();
    const known = this.memo.get(key);
    if (known && known.stamp === stamp) return known.value as T;
    const value = read();
    this.memo.delete(key);
    if (size(value) <= MEMO_MAX_CHANGES) {
      this.memo.set(key, { stamp, value });
      if (this.memo.size > MEMO_WINDOWS) this.memo.delete(this.memo.keys().next().value!);
    }
    return value;
  }

  private windowSql(w: WindowSpec): { sql: string; params: (number | string)[] } {
    const params: (number | string)[] = [];
    let where = "";
    if (w.since !== null) {
      where = "WHERE c.commit_time >= ?";
      params.push(w.since);
    }
    // Ids are integers from the index: written into the SQL, a list of any length needs no bound parameters.
    if (w.skip?.length) where += `${where ? " AND" : "WHERE"} c.id NOT IN (${w.skip.map((id) => Math.trunc(id)).join(",")})`;
    let limit = "";
    if (w.limit !== null) limit = "LIMIT ?";
    if (w.under) {
      // The paths at or under it first (a range of the paths index: '0' follows '/'), then their
      // commits by the changes indexes: a file renamed away from the path changed it too, as git log -- PATH says.
      const range = [w.under, `${w.under}/`, `${w.under}0`];
      params.unshift(...range, ...range);
      if (w.limit !== null) params.push(w.limit);
      const under = "(p.path = ? OR (p.path >= ? AND p.path < ?))";
      return {
        sql: `SELECT DISTINCT s.seq, s.commit_id FROM (
                  SELECT ch.commit_id FROM paths p CROSS JOIN changes ch ON ch.path_id = p.id WHERE ${under}
                  UNION SELECT ch.commit_id FROM paths p CROSS JOIN changes ch ON ch.old_path_id = p.id WHERE ${under}
                ) u CROSS JOIN ${w.scope} s ON s.commit_id = u.commit_id JOIN commit_rows c ON c.id = s.commit_id
               ${where} ORDER BY s.seq ${limit}`,
        params,
      };
    }
    if (w.limit !== null) params.push(w.limit);
    return {
      sql: `SELECT s.seq, s.commit_id FROM ${w.scope} s JOIN commit_rows c ON c.id = s.commit_id ${where} ORDER BY s.seq ${limit}`,
      params,
    };
  }

  /** The shas of the window's commits. */
  windowShas(w: WindowSpec): string[] {
    const { sql, params } = this.windowSql(w);
    return this.db.prepare(`SELECT c.sha FROM (${sql}) win JOIN commits c ON c.id = win.commit_id`).all(...params).map((r) => String(r.sha));
  }

  /** The window's size and the time span it covers. */
  windowInfo(w: WindowSpec): { commits: number; oldest: number | null; newest: number | null } {
    return this.remembered("info", w, () => {
      const { sql, params } = this.windowSql(w);
      const r = this.db
        .prepare(`SELECT count(*) AS n, min(c.commit_time) AS oldest, max(c.commit_time) AS newest FROM (${sql}) win JOIN commits c ON c.id = win.commit_id`)
        .get(...params)!;
      return { commits: Number(r.n), oldest: r.oldest === null ? null : Number(r.oldest), newest: r.newest === null ? null : Number(r.newest) };
    });
  }

  /**
   * Per-path activity in the window: commits, churn, distinct authors, newest change (the
   * window's commits walked first), with the path's blob in the stored tree and its line
   * count when measured (null/-1 when not there or not measured). Read once per state of the
   * index; the rows are shared, never to be changed by the caller.
   */
  activity(w: WindowSpec): readonly ActivityRow[] {
    return this.remembered("activity", w, () => this.readActivity(w), (rows) => rows.length);
  }

  private readActivity(w: WindowSpec): ActivityRow[] {
    const { sql, params } = this.windowSql(w);
    // Under a path, git's rename detection sees only that path: a file renamed out of it is
    // deleted there, and git log -- PATH counts the commit for its old name (its +/- unknown here).
    const changes = w.under
      ? `(SELECT commit_id, path_id, additions, deletions FROM changes
          UNION ALL SELECT ch.commit_id, ch.old_path_id, 0, 0 FROM changes ch JOIN paths o ON o.id = ch.old_path_id JOIN paths n ON n.id = ch.path_id
           WHERE (o.path = ? OR (o.path >= ? AND o.path < ?)) AND NOT (n.path >= ? AND n.path < ?))`
      : "changes";
    const range = w.under ? [w.under, `${w.under}/`, `${w.under}0`, `${w.under}/`, `${w.under}0`] : [];
    return this.db
      .prepare(
        `WITH win AS MATERIALIZED (${sql}),
         act AS (SELECT ch.path_id, count(*) AS commits, coalesce(sum(ch.additions), 0) AS additions, coalesce(sum(ch.deletions), 0) AS deletions,
                        count(DISTINCT c.email) AS authors, max(c.time) AS last, sum(c.churn = 0) AS churnUnknown
                   FROM win CROSS JOIN ${changes} ch ON ch.commit_id = win.commit_id JOIN commits c ON c.id = ch.commit_id
                  GROUP BY ch.path_id)
         SELECT act.path_id AS pathId, p.path, act.commits, act.additions, act.deletions, act.authors, act.last, act.churnUnknown,
                CASE WHEN t.type = 'blob' THEN lower(hex(t.blob)) END AS headBlob, CASE WHEN bl.blob IS NULL THEN -1 ELSE bl.lines END AS headLines
           FROM act JOIN paths p ON p.id = act.path_id LEFT JOIN tree t ON t.path_id = act.path_id LEFT JOIN blob_lines bl ON bl.blob = t.blob`,
      )
      .all(...params, ...range) as unknown as ActivityRow[];
  }
}
