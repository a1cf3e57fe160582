/** SQL for co-change: the newest commits that touched a file, the files of those commits, and how often a file changed in a span. */
import type { SqlDatabase } from "../runtime/index.ts";
import { dbStamp } from "./stamp.ts";

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
  /** Each path's window commits (their seqs, newest first), per window and state of the index: jaccard counts them again and again. */
  private seqMemo: { key: string; seqs: Map<number, Int32Array>; size: number } | undefined;
  /** Each path's window touches, per window and state of the index: a busy file's cost a sort of all its changes. */
  private touchMemo: { key: string; touches: Map<string, Touch[]>; size: number } | undefined;
  /** The paths each commit changed: a commit's files never change, so they are kept while the memo is small. */
  private filesMemo = new Map<number, number[]>();

  constructor(private readonly db: SqlDatabase) {}

  /** Drops what is remembered (the tables were emptied, or another process rebuilt them: ids are handed out again). */
  forget(): void {
    this.filesMemo.clear();
    this.touchMemo = undefined;
    this.seqMemo = undefined;
  }

  private filter(w: FileWindowSpec, params: number[]): string {
    params.push(w.maxFiles);
    let where = "c.nfiles <= ?";
    if (w.since !== null) {
      where += " AND c.commit_time >= ?";
      params.push(w.since);
    }
    return where;
  }

  /** The window's commits that touched `pathId`, newest first (remembered per state of the index). */
  touches(w: FileWindowSpec, pathId: number): Touch[] {
    const key = `${w.scope}\0${w.maxFiles}\0${w.since}\0${dbStamp(this.db)}`;
    if (this.touchMemo?.key !== key || this.touchMemo.size > 500_000) this.touchMemo = { key, touches: new Map(), size: 0 };
    const id = `${pathId}:${w.limit}`;
    let found = this.touchMemo.touches.get(id);
    if (!found) {
      found = this.readTouches(w, pathId);
      this.touchMemo.touches.set(id, found);
      this.touchMemo.size += found.length;
    }
    return found;
  }

  private readTouches(w: FileWindowSpec, pathId: number): Touch[] {
    const params: number[] = [pathId];
    const where = this.filter(w, params);
    if (w.limit !== null) params.push(w.limit);
    return this.db
      .prepare(
        `SELECT s.seq AS seq, c.id AS commitId, c.nfiles AS nfiles FROM changes ch JOIN ${w.scope} s ON s.commit_id = ch.commit_id JOIN commit_rows c ON c.id = ch.commit_id
          WHERE ch.path_id = ? AND ${where} ORDER BY s.seq ${w.limit !== null ? "LIMIT ?" : ""}`,
      )
      .all(...params)
      .map((r) => ({ seq: Number(r.seq), commitId: Number(r.commitId), nfiles: Number(r.nfiles) }));
  }

  /** The paths each commit changed. */
  filesOf(commitIds: number[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    const missing: number[] = [];
    for (const id of commitIds) {
      const known = this.filesMemo.get(id);
      if (known) out.set(id, known);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    for (const id of missing) out.set(id, []);
    const rows = this.db.prepare("SELECT ch.commit_id AS c, ch.path_id AS p FROM json_each(?) j JOIN changes ch ON ch.commit_id = j.value").all(JSON.stringify(missing));
    for (const r of rows) out.get(Number(r.c))!.push(Number(r.p));
    if (this.filesMemo.size > 200_000) this.filesMemo.clear();
    for (const id of missing) this.filesMemo.set(id, out.get(id)!);
    return out;
  }

  /** How many commits of the window, no older than seq `oldest`, touched `pathId`. */
  touchesUpTo(w: FileWindowSpec, pathId: number, oldest: number): number {
    const key = `${w.scope}\0${w.maxFiles}\0${w.since}\0${dbStamp(this.db)}`;
    if (this.seqMemo?.key !== key || this.seqMemo.size > 2_000_000) this.seqMemo = { key, seqs: new Map(), size: 0 };
    let seqs = this.seqMemo.seqs.get(pathId);
    if (!seqs) {
      seqs = Int32Array.from(this.touches({ ...w, limit: null }, pathId), (t) => t.seq);
      this.seqMemo.seqs.set(pathId, seqs);
      this.seqMemo.size += seqs.length;
    }
    // Seqs ascend (newest first): count those <= oldest.
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid]! <= oldest) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The scope's newest `limit` commits of 1 to maxFiles files, newest first. */
  newest(scope: string, limit: number, maxFiles: number): Touch[] {
    return this.db
      .prepare(`SELECT s.seq AS seq, c.id AS commitId, c.nfiles AS nfiles FROM ${scope} s JOIN commit_rows c ON c.id = s.commit_id WHERE c.nfiles BETWEEN 1 AND ? ORDER BY s.seq LIMIT ?`)
      .all(maxFiles, limit)
      .map((r) => ({ seq: Number(r.seq), commitId: Number(r.commitId), nfiles: Number(r.nfiles) }));
  }

  /** The names of path ids, in one read. */
  pathNames(ids: Iterable<number>): Map<number, string> {
    const rows = this.db.prepare("SELECT p.id AS id, p.path AS path FROM json_each(?) j JOIN paths p ON p.id = j.value").all(JSON.stringify([...ids]));
    return new Map(rows.map((r) => [Number(r.id), String(r.path)]));
  }

  /** The newest commit time (Unix s) of a commit row. */
  commitTime(commitId: number): number {
    return Number(this.db.prepare("SELECT commit_time AS t FROM commit_rows WHERE id = ?").get(commitId)!.t);
  }

  pathName(pathId: number): string {
    return String(this.db.prepare("SELECT path FROM paths WHERE id = ?").get(pathId)!.path);
  }
}
