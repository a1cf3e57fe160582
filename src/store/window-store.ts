/** SQL over windows of history: the newest commits of a scope, and what co-change and hotspots count in them. */
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

export interface CochangeRow {
  pathId: number;
  path: string;
  /** Window commits touching both files. */
  count: number;
  /** The same commits weighted 1/ln(files in the commit). */
  weight: number;
  /** Window commits touching this file. */
  touching: number;
}

/** A window of history: the first `limit` commits of a scope (by seq), from `since` (Unix s) on. */
export interface WindowSpec {
  scope: string;
  limit: number | null;
  since: number | null;
}

export class WindowStore {
  constructor(private readonly db: SqlDatabase) {}

  private windowSql(w: WindowSpec): { sql: string; params: number[] } {
    const params: number[] = [];
    let where = "";
    if (w.since !== null) {
      where = "WHERE c.commit_time >= ?";
      params.push(w.since);
    }
    let limit = "";
    if (w.limit !== null) {
      limit = "LIMIT ?";
      params.push(w.limit);
    }
    return {
      sql: `SELECT s.seq, s.commit_id FROM ${w.scope} s JOIN commits c ON c.id = s.commit_id ${where} ORDER BY s.seq ${limit}`,
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
    const { sql, params } = this.windowSql(w);
    const r = this.db
      .prepare(`SELECT count(*) AS n, min(c.commit_time) AS oldest, max(c.commit_time) AS newest FROM (${sql}) win JOIN commits c ON c.id = win.commit_id`)
      .get(...params)!;
    return { commits: Number(r.n), oldest: r.oldest === null ? null : Number(r.oldest), newest: r.newest === null ? null : Number(r.newest) };
  }

  /**
   * Co-change of `pathId` over the window (commits touching more than maxFiles files left
   * out): per other path, the commits shared, their summed 1/ln(files) weight, and how many
   * window commits touch it. Every step walks the window's commits (CROSS JOIN keeps SQLite
   * from starting at a path's whole history), so the cost stays with the window.
   */
  cochange(w: WindowSpec, pathId: number, maxFiles: number): { commits: number; rows: CochangeRow[] } {
    const { sql, params } = this.windowSql(w);
    const kept = `WITH win AS MATERIALIZED (${sql}),
      kept AS MATERIALIZED (SELECT win.commit_id, c.nfiles FROM win CROSS JOIN commits c ON c.id = win.commit_id WHERE c.nfiles <= ?),
      target AS MATERIALIZED (SELECT kept.commit_id, kept.nfiles FROM kept CROSS JOIN changes ch ON ch.commit_id = kept.commit_id AND ch.path_id = ?)`;
    const base = [...params, maxFiles, pathId];
    const pairs = this.db
      .prepare(`${kept} SELECT ch.path_id AS id, target.nfiles FROM target CROSS JOIN changes ch ON ch.commit_id = target.commit_id WHERE ch.path_id <> ?`)
      .all(...base, pathId);
    const commits = Number(this.db.prepare(`${kept} SELECT count(*) AS n FROM target`).get(...base)!.n);
    const byPath = new Map<number, CochangeRow>();
    for (const r of pairs) {
      const id = Number(r.id);
      const row = byPath.get(id) ?? { pathId: id, path: "", count: 0, weight: 0, touching: 0 };
      row.count++;
      // A commit of two files says more about the pair than one of forty.
      row.weight += 1 / Math.log(Number(r.nfiles));
      byPath.set(id, row);
    }
    if (byPath.size > 0) {
      const touching = this.db.prepare(`${kept} SELECT ch.path_id AS id, count(*) AS n FROM kept CROSS JOIN changes ch ON ch.commit_id = kept.commit_id GROUP BY ch.path_id`).all(...base);
      for (const t of touching) {
        const row = byPath.get(Number(t.id));
        if (row) row.touching = Number(t.n);
      }
      const name = this.db.prepare("SELECT path FROM paths WHERE id = ?");
      for (const row of byPath.values()) row.path = String(name.get(row.pathId)!.path);
    }
    return { commits, rows: [...byPath.values()] };
  }

  /**
   * Per-path activity in the window: commits, churn, distinct authors, newest change (the
   * window's commits walked first), with the path's blob in the stored tree and its line
   * count when measured (null/-1 when not there or not measured).
   */
  activity(w: WindowSpec): ActivityRow[] {
    const { sql, params } = this.windowSql(w);
    return this.db
      .prepare(
        `WITH win AS MATERIALIZED (${sql}),
         act AS (SELECT ch.path_id, count(*) AS commits, coalesce(sum(ch.additions), 0) AS additions, coalesce(sum(ch.deletions), 0) AS deletions,
                        count(DISTINCT c.email) AS authors, max(c.time) AS last, sum(c.churn = 0) AS churnUnknown
                   FROM win CROSS JOIN changes ch ON ch.commit_id = win.commit_id JOIN commits c ON c.id = ch.commit_id
                  GROUP BY ch.path_id)
         SELECT act.path_id AS pathId, p.path, act.commits, act.additions, act.deletions, act.authors, act.last, act.churnUnknown,
                CASE WHEN t.type = 'blob' THEN t.blob END AS headBlob, CASE WHEN bl.blob IS NULL THEN -1 ELSE bl.lines END AS headLines
           FROM act JOIN paths p ON p.id = act.path_id LEFT JOIN tree t ON t.path_id = act.path_id LEFT JOIN blob_lines bl ON bl.blob = t.blob`,
      )
      .all(...params) as unknown as ActivityRow[];
  }
}
