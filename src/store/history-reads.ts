/** SQL that reads commits, the paths they touched, and the order of history (reach and scopes); the writes are history-store.ts. */
import type { SqlDatabase } from "../runtime/index.ts";
import { objectBytes } from "./tree-store.ts";
import { ownString } from "./own-string.ts";

export interface CommitRow {
  id: number;
  sha: string;
  parents: string;
  author: string;
  email: string;
  time: number;
  commit_time: number;
  subject: string;
  message: string;
  nfiles: number;
  churn: number;
}

export interface PathChangeRow {
  seq: number;
  commit_id: number;
  sha: string;
  author: string;
  email: string;
  time: number;
  subject: string;
  status: string;
  path: string;
  old_path: string | null;
  additions: number | null;
  deletions: number | null;
  churn: number;
}

/** How git log --follow sees a commit that adds a file: a copy or rename of oldPath, with the diff against it. */
export interface FollowOrigin {
  status: string;
  oldPath: string | null;
  additions: number | null;
  deletions: number | null;
}

/** A change of the path (bound twice as ?1) or a rename of it away: the rows pathChanges finds. */
const TOUCHES = "(ch.path_id = ?1 OR (ch.old_path_id = ?1 AND ch.status = 'R'))";

/**
 * The fields of a path's change at each commit of a `top` (seq, commit_id) table, in order: the
 * path's own row, or else the rename that took it away (one per commit, -M uses a source once).
 */
const CHANGE_FIELDS = `SELECT top.seq, c.id AS commit_id, c.sha, c.author, c.email, c.time, c.subject, c.churn,
         ch.status, p.path, op.path AS old_path, ch.additions, ch.deletions
    FROM top
    JOIN changes ch ON ch.commit_id = top.commit_id AND ch.path_id = coalesce(
      (SELECT path_id FROM changes WHERE commit_id = top.commit_id AND path_id = ?1),
      (SELECT path_id FROM changes WHERE commit_id = top.commit_id AND old_path_id = ?1 AND status = 'R'))
    JOIN commits c ON c.id = top.commit_id
    JOIN paths p ON p.id = ch.path_id
    LEFT JOIN paths op ON op.id = ch.old_path_id
   ORDER BY top.seq`;

export class HistoryReads {
  protected readonly pathIds = new Map<string, number>();

  constructor(protected readonly db: SqlDatabase) {}

  /** Drops what is kept in memory (after the tables were emptied). */
  forget(): void {
    this.pathIds.clear();
  }

  pathId(path: string): number | undefined {
    const cached = this.pathIds.get(path);
    if (cached !== undefined) return cached;
    const row = this.db.prepare("SELECT id FROM paths WHERE path = ?").get(path);
    if (!row) return undefined;
    this.pathIds.set(ownString(path), Number(row.id));
    return Number(row.id);
  }

  pathsUnder(prefix: string): string[] {
    return this.db.prepare("SELECT path FROM paths WHERE substr(path, 1, ?) = ?").all(prefix.length, prefix).map((r) => String(r.path));
  }

  /** Every stored commit's parents and committer time: the graph git's walk order is worked out on (walk-order.ts). */
  commitGraph(): Map<string, { parents: string[]; commitTime: number }> {
    const out = new Map<string, { parents: string[]; commitTime: number }>();
    for (const r of this.db.prepare("SELECT sha, parents, commit_time FROM commits").all()) out.set(String(r.sha), { parents: String(r.parents).split(" ").filter(Boolean), commitTime: Number(r.commit_time) });
    return out;
  }

  /** True when the commit is stored with parents, every one of them stored too: history goes on below it. */
  holdsParents(sha: string): boolean {
    const parents = this.commitBySha(sha)?.parents.split(" ").filter(Boolean);
    return parents !== undefined && parents.length > 0 && parents.every((p) => this.commitId(p) !== undefined);
  }

  /** Whether any indexed path lies under the folder `folder` (without its trailing /): a range of the unique index on path, no scan. */
  hasPathsUnder(folder: string): boolean {
    // "/" + 1 is "0": the paths from "folder/" up to "folder0" are exactly those under it.
    return this.db.prepare("SELECT 1 FROM paths WHERE path >= ? AND path < ? LIMIT 1").get(`${folder}/`, `${folder}0`) !== undefined;
  }

  commitId(sha: string): number | undefined {
    const row = this.db.prepare("SELECT id FROM commit_rows WHERE sha = ?").get(objectBytes(sha));
    return row ? Number(row.id) : undefined;
  }

  /** Whether a commit is indexed and still lacks its line counts (one row of commit_rows, none of the view's work). */
  lacksChurn(sha: string): boolean {
    const r = this.db.prepare("SELECT churn, nfiles FROM commit_rows WHERE sha = ?").get(objectBytes(sha));
    return r !== undefined && r !== null && Number(r.churn) === 0 && Number(r.nfiles) > 0;
  }

  /** The commits reachable from the indexed head still without line counts, newest first. */
  lackingChurn(): string[] {
    return this.db
      .prepare("SELECT c.sha FROM reach r JOIN commit_rows c ON c.id = r.commit_id WHERE c.churn = 0 AND c.nfiles > 0 ORDER BY r.seq")
      .all()
      .map((r) => Buffer.from(r.sha as Uint8Array).toString("hex"));
  }

  commitBySha(sha: string): CommitRow | undefined {
    const id = this.commitId(sha);
    if (id === undefined) return undefined;
    return this.db.prepare("SELECT id, sha, parents, author, email, time, commit_time, subject, message, nfiles, churn FROM commits WHERE id = ?").get(id) as CommitRow | undefined;
  }

  /** Where git log --follow went on from a file's creation; undefined when not asked yet. */
  followOrigin(commitId: number, pathId: number): FollowOrigin | undefined {
    const r = this.db
      .prepare("SELECT f.status, p.path, f.additions, f.deletions FROM follow_origins f LEFT JOIN paths p ON p.id = f.old_path_id WHERE f.commit_id = ? AND f.path_id = ?")
      .get(commitId, pathId);
    if (!r) return undefined;
    return { status: String(r.status), oldPath: r.path === null ? null : String(r.path), additions: r.additions === null ? null : Number(r.additions), deletions: r.deletions === null ? null : Number(r.deletions) };
  }

  /** The first and last seq of an order (the reach table or a scope table), and how many commits it holds: seq has no gaps (every writer appends next to an end), so no count(*) scan. */
  reachBounds(scope = "reach"): { min: number; max: number; count: number } {
    // Two subqueries: SQLite reads min() or max() off the key only when each stands alone.
    const r = this.db.prepare(`SELECT (SELECT min(seq) FROM ${scope}) AS min, (SELECT max(seq) FROM ${scope}) AS max`).get()!;
    if (r.min === null) return { min: 0, max: -1, count: 0 };
    return { min: Number(r.min), max: Number(r.max), count: Number(r.max) - Number(r.min) + 1 };
  }

  /**
   * Changes to `pathId` in scope, newest first, strictly older than `afterSeq`, with the commits
   * that renamed it away (git log --follow, following that name, shows them as its deletion;
   * the index keeps them under the new name). A quiet file's are found by sorting all of its
   * changes; a busy file's faster by walking the scope newest first and probing each commit
   * (about limit × commits / changes probes). The walk is bounded: a file busy long ago but
   * quiet lately costs a short walk, then the sort.
   */
  pathChanges(scope: string, pathId: number, afterSeq: number | null, limit: number): PathChangeRow[] {
    const after = afterSeq ?? -(2 ** 53);
    const changes = Number(this.db.prepare(`SELECT count(*) AS n FROM changes ch WHERE ${TOUCHES}`).get(pathId)!.n);
    const { min, count: span } = this.reachBounds(scope);
    if (changes * changes <= 4 * limit * span) return this.sortedChanges(scope, pathId, after, limit);
    const from = Math.max(after, min - 1);
    const to = from + Math.ceil((8 * limit * span) / changes);
    const walked = this.db
      .prepare(
        `SELECT s.seq, s.commit_id FROM ${scope} s
          WHERE s.seq > ?2 AND s.seq <= ?3
            AND (EXISTS (SELECT 1 FROM changes WHERE commit_id = s.commit_id AND path_id = ?1)
              OR EXISTS (SELECT 1 FROM changes WHERE old_path_id = ?1 AND commit_id = s.commit_id AND status = 'R'))
          ORDER BY s.seq LIMIT ?4`,
      )
      .all(pathId, from, to, limit);
    const found = walked.length === 0 ? [] : this.changeRows(JSON.stringify(walked.map((r) => [r.seq, r.commit_id])), pathId);
    return found.length === limit ? found : [...found, ...this.sortedChanges(scope, pathId, to, limit - found.length)];
  }

  /** The newest `limit` changes after seq `after`, by sorting all of the path's changes in scope (then fields for the few kept). */
  private sortedChanges(scope: string, pathId: number, after: number, limit: number): PathChangeRow[] {
    return this.db
      .prepare(
        `WITH top AS (SELECT DISTINCT s.seq, ch.commit_id FROM changes ch JOIN ${scope} s ON s.commit_id = ch.commit_id
                       WHERE ${TOUCHES} AND s.seq > ?2 ORDER BY s.seq LIMIT ?3)
         ${CHANGE_FIELDS}`,
      )
      .all(pathId, after, limit) as unknown as PathChangeRow[];
  }

  /** The changes at `top` ([seq, commit id] pairs as JSON), with their commits' fields. */
  private changeRows(top: string, pathId: number): PathChangeRow[] {
    return this.db.prepare(`WITH top AS (SELECT j.value ->> 0 AS seq, j.value ->> 1 AS commit_id FROM json_each(?2) j) ${CHANGE_FIELDS}`).all(pathId, top) as unknown as PathChangeRow[];
  }

  /** How many commits in scope changed the path. */
  changeCount(scope: string, pathId: number): number {
    return Number(this.db.prepare(`SELECT count(*) AS n FROM changes ch JOIN ${scope} s ON s.commit_id = ch.commit_id WHERE ch.path_id = ?`).get(pathId)!.n);
  }

  /** Whether the commit deleted or renamed away a file: a source git blame could pair a new file with. */
  removesAny(commitId: number): boolean {
    return this.db.prepare("SELECT 1 FROM changes WHERE commit_id = ? AND status IN ('D', 'R') LIMIT 1").get(commitId) !== undefined;
  }

  /** The change a commit made to a path, with its commit's fields. */
  changeIn(commitSha: string, path: string): PathChangeRow | undefined {
    return this.db
      .prepare(
        `SELECT 0 AS seq, c.id AS commit_id, c.sha, c.author, c.email, c.time, c.subject, c.churn,
                ch.status, p.path, op.path AS old_path, ch.additions, ch.deletions
           FROM changes ch JOIN commits c ON c.id = ch.commit_id JOIN paths p ON p.id = ch.path_id
           LEFT JOIN paths op ON op.id = ch.old_path_id
          WHERE ch.commit_id = ? AND p.path = ?`,
      )
      .get(this.commitId(commitSha) ?? -1, path) as PathChangeRow | undefined;
  }

  /** The newest commit in scope that touched the path. */
  lastTouch(scope: string, pathId: number): string | undefined {
    // min() over the path's changes, then one lookup: sorting joined rows costs twice as much.
    const r = this.db
      .prepare(`SELECT c.sha FROM ${scope} s JOIN commits c ON c.id = s.commit_id WHERE s.seq = (SELECT min(s2.seq) FROM changes ch JOIN ${scope} s2 ON s2.commit_id = ch.commit_id WHERE ch.path_id = ?)`)
      .get(pathId);
    return r ? String(r.sha) : undefined;
  }

  filesOf(commitId: number): string[] {
    return this.db.prepare("SELECT p.path FROM changes ch JOIN paths p ON p.id = ch.path_id WHERE ch.commit_id = ? ORDER BY p.path").all(commitId).map((r) => String(r.path));
  }
}
