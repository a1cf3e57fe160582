/** SQL for co-change: the newest commits that touched a file, the files of those commits, and how often a file changed in a span. */
import type { SqlDatabase } from "../runtime/index.ts";

/** The newest `limit` commits (all when null) of a scope that touched a path, from `since` on, leaving out commits of more than maxFiles files. */
export interface FileWindowSpec {
  scope: string;
  limit: number | null;
  since: number | null;
  maxFiles: number;
}

export interface Touch {
  seq: number;
  commitId: number;
  nfiles: number;
}

export class CochangeStore {
  constructor(private readonly db: SqlDatabase) {}

  private filter(w: FileWindowSpec, params: number[]): string {
    params.push(w.maxFiles);
    let where = "c.nfiles <= ?";
    if (w.since !== null) {
      where += " AND c.commit_time >= ?";
      params.push(w.since);
    }
    return where;
  }

  /** The window's commits that touched `pathId`, newest first. */
  touches(w: FileWindowSpec, pathId: number): Touch[] {
    const params: number[] = [pathId];
    const where = this.filter(w, params);
    if (w.limit !== null) params.push(w.limit);
    return this.db
      .prepare(
        `SELECT s.seq AS seq, c.id AS commitId, c.nfiles AS nfiles FROM changes ch JOIN ${w.scope} s ON s.commit_id = ch.commit_id JOIN commits c ON c.id = ch.commit_id
          WHERE ch.path_id = ? AND ${where} ORDER BY s.seq ${w.limit !== null ? "LIMIT ?" : ""}`,
      )
      .all(...params)
      .map((r) => ({ seq: Number(r.seq), commitId: Number(r.commitId), nfiles: Number(r.nfiles) }));
  }

  /** The paths each commit changed. */
  filesOf(commitIds: number[]): Map<number, number[]> {
    const out = new Map<number, number[]>(commitIds.map((id) => [id, []]));
    const rows = this.db.prepare("SELECT ch.commit_id AS c, ch.path_id AS p FROM json_each(?) j JOIN changes ch ON ch.commit_id = j.value").all(JSON.stringify(commitIds));
    for (const r of rows) out.get(Number(r.c))!.push(Number(r.p));
    return out;
  }

  /** How many commits of the window, no older than seq `oldest`, touched `pathId`. */
  touchesUpTo(w: FileWindowSpec, pathId: number, oldest: number): number {
    const params: number[] = [pathId, oldest];
    const where = this.filter(w, params);
    const r = this.db
      .prepare(`SELECT count(*) AS n FROM changes ch JOIN ${w.scope} s ON s.commit_id = ch.commit_id JOIN commits c ON c.id = ch.commit_id WHERE ch.path_id = ? AND s.seq <= ? AND ${where}`)
      .get(...params)!;
    return Number(r.n);
  }

  /** The newest commit time (Unix s) of a commit row. */
  commitTime(commitId: number): number {
    return Number(this.db.prepare("SELECT commit_time AS t FROM commits WHERE id = ?").get(commitId)!.t);
  }

  pathName(pathId: number): string {
    return String(this.db.prepare("SELECT path FROM paths WHERE id = ?").get(pathId)!.path);
  }
}
