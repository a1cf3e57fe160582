/** SQL over cached blames: hunks by cache key, and the commits they name. */
import type { SqlDatabase } from "../runtime/index.ts";
import type { BlameCommit, BlameHunk, BlameResult } from "../git/records.ts";

export interface CachedBlame {
  id: number;
  lines: number;
  binary: boolean;
  boundary: Set<string>;
}

export class BlameStore {
  constructor(private readonly db: SqlDatabase) {}

  find(key: string): CachedBlame | undefined {
    const r = this.db.prepare("SELECT id, lines, binary, boundary FROM blames WHERE key = ?").get(key);
    if (!r) return undefined;
    return { id: Number(r.id), lines: Number(r.lines), binary: Number(r.binary) === 1, boundary: new Set(String(r.boundary).split(" ").filter(Boolean)) };
  }

  /** Stores a blame under `key` (inside a transaction); returns its id. */
  save(key: string, path: string, blob: string | null, blame: BlameResult, now: number): number {
    const old = this.find(key);
    if (old) {
      this.db.prepare("DELETE FROM blame_hunks WHERE blame_id = ?").run(old.id);
      this.db.prepare("DELETE FROM blames WHERE id = ?").run(old.id);
    }
    const boundary = Object.entries(blame.commits).filter(([, c]) => c.boundary).map(([s]) => s).join(" ");
    this.db.prepare("INSERT INTO blames (key, path, blob, lines, binary, boundary, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run(key, path, blob, blame.lines, blame.binary ? 1 : 0, boundary, now);
    const id = this.find(key)!.id;
    const hunk = this.db.prepare("INSERT INTO blame_hunks (blame_id, start, end, sha, orig_path, orig_start) VALUES (?, ?, ?, ?, ?, ?)");
    if (!blame.binary) for (const h of blame.hunks) hunk.run(id, h.start, h.end, h.sha, h.origPath, h.origStart);
    const commit = this.db.prepare("INSERT OR REPLACE INTO blame_commits (sha, author, email, time, subject) VALUES (?, ?, ?, ?, ?)");
    for (const [sha, c] of Object.entries(blame.commits)) commit.run(sha, c.author, c.email, c.time, c.subject);
    return id;
  }

  /** Hunks overlapping lines start..end (whole file when omitted). */
  hunks(blameId: number, start = 1, end = Number.MAX_SAFE_INTEGER): BlameHunk[] {
    return this.db
      .prepare("SELECT start, end, sha, orig_path, orig_start FROM blame_hunks WHERE blame_id = ? AND end >= ? AND start <= ? ORDER BY start")
      .all(blameId, start, end)
      .map((r) => ({ start: Number(r.start), end: Number(r.end), sha: String(r.sha), origPath: String(r.orig_path), origStart: Number(r.orig_start) }));
  }

  commits(shas: Iterable<string>): Map<string, BlameCommit> {
    const out = new Map<string, BlameCommit>();
    const st = this.db.prepare("SELECT author, email, time, subject FROM blame_commits WHERE sha = ?");
    for (const sha of shas) {
      if (out.has(sha)) continue;
      const r = st.get(sha);
      if (r) out.set(sha, { author: String(r.author), email: String(r.email), time: Number(r.time), subject: String(r.subject) });
    }
    return out;
  }

  /** Lines per (author, email, sha) over the given blames: what contributors sums. */
  authorship(blameIds: number[]): { sha: string; lines: number }[] {
    if (blameIds.length === 0) return [];
    const out = new Map<string, number>();
    const st = this.db.prepare("SELECT sha, sum(end - start + 1) AS lines FROM blame_hunks WHERE blame_id = ? GROUP BY sha");
    for (const id of blameIds) for (const r of st.all(id)) out.set(String(r.sha), (out.get(String(r.sha)) ?? 0) + Number(r.lines));
    return [...out].map(([sha, lines]) => ({ sha, lines }));
  }

  /** Files of the stored tree whose current content has a cached blame. */
  blamedInTree(): number {
    return Number(
      this.db.prepare("SELECT count(*) AS n FROM tree t JOIN paths p ON p.id = t.path_id WHERE EXISTS (SELECT 1 FROM blames b WHERE b.path = p.path AND b.blob = t.blob)").get()!.n,
    );
  }

  /** Whether a blame under this key is cached. */
  has(key: string): boolean {
    return this.db.prepare("SELECT 1 FROM blames WHERE key = ?").get(key) !== undefined;
  }
}
