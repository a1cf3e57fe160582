/** SQL over cached blames: hunks by cache key, and the commits they name. */
import type { SqlDatabase } from "../runtime/index.ts";
import { createHash } from "node:crypto";
import type { BlameCommit, BlameHunk, BlameResult } from "../git/records.ts";
import type { HistoryStore } from "./history-store.ts";
import { objectBytes } from "./tree-store.ts";
import { ownString } from "./own-string.ts";

export interface CachedBlame {
  id: number;
  lines: number;
  binary: boolean;
  boundary: Set<string>;
}

/** Blames (found by key, and their lines per commit) kept in memory at most, a few hundred bytes each: more than the files of a big tree, or owners of its root would read them all again each time. */
const MEMO_BLAMES = 60_000;
/** Commits whose blame facts are kept in memory at most. */
const MEMO_COMMITS = 100_000;

/** A cache key as stored: its sha-1 (the key names a path, a blob, a commit and the ignore list: ~130 bytes). */
function keyBytes(key: string): Uint8Array {
  return createHash("sha1").update(key).digest();
}

export class BlameStore {
  private readonly found = new Map<string, CachedBlame>();
  private readonly lineMemo = new Map<number, Map<string, number>>();
  private readonly commitMemo = new Map<string, BlameCommit>();
  /** blame_commits ids by sha, of rows known to exist. */
  private readonly commitIds = new Map<string, number>();

  constructor(
    private readonly db: SqlDatabase,
    private readonly history: HistoryStore,
  ) {}

  /** The blame saved under `key` (remembered once found: what a key names never changes). */
  find(key: string): CachedBlame | undefined {
    const known = this.found.get(key);
    if (known) return known;
    const r = this.db.prepare("SELECT id, lines, binary, boundary FROM blames WHERE key = ?").get(keyBytes(key));
    if (!r) return undefined;
    const b = { id: Number(r.id), lines: Number(r.lines), binary: Number(r.binary) === 1, boundary: new Set(String(r.boundary).split(" ").filter(Boolean)) };
    if (this.found.size >= MEMO_BLAMES) this.found.clear();
    this.found.set(ownString(key), b);
    return b;
  }

  /** Stores a blame under `key` (inside a transaction); returns its id. */
  save(key: string, path: string, blob: string | null, blame: BlameResult, now: number): number {
    const old = this.find(key);
    if (old) {
      this.found.delete(key);
      this.lineMemo.delete(old.id);
      this.db.prepare("DELETE FROM blame_hunks WHERE blame_id = ?").run(old.id);
      this.db.prepare("DELETE FROM blames WHERE id = ?").run(old.id);
    }
    const boundary = Object.entries(blame.commits).filter(([, c]) => c.boundary).map(([s]) => s).join(" ");
    const pathId = this.history.ensurePathId(path);
    const id = Number(
      this.db
        .prepare("INSERT INTO blames (key, path_id, blob, lines, binary, boundary, used_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
        .get(keyBytes(key), pathId, blob === null ? null : objectBytes(blob), blame.lines, blame.binary ? 1 : 0, boundary, now)!.id,
    );
    if (blame.binary) return id;
    // A commit's facts are the same in every blame (the mailmap changing empties the index): stored once, named by id.
    const commitIds = new Map<string, number>();
    for (const [sha, c] of Object.entries(blame.commits)) commitIds.set(sha, this.commitRowId(sha, c));
    const hunk = this.db.prepare("INSERT INTO blame_hunks (blame_id, start, end, commit_id, orig_path_id, orig_start) VALUES (?, ?, ?, ?, ?, ?)");
    for (const h of blame.hunks) {
      const commitId = commitIds.get(h.sha) ?? this.commitRowId(h.sha, { author: "", email: "", time: 0, subject: "" });
      hunk.run(id, h.start, h.end, commitId, h.origPath === path ? null : this.history.ensurePathId(h.origPath), h.origStart);
    }
    return id;
  }

  /** The blame_commits id of `sha`, stored with its facts when new (call inside a transaction). */
  private commitRowId(sha: string, c: BlameCommit): number {
    const known = this.commitIds.get(sha);
    if (known !== undefined) return known;
    const bytes = objectBytes(sha);
    let r = this.db.prepare("SELECT id FROM blame_commits WHERE sha = ?").get(bytes);
    r ??= this.db.prepare("INSERT INTO blame_commits (sha, person_id, time, subject) VALUES (?, ?, ?, ?) RETURNING id").get(bytes, this.history.personId(c.author, c.email), c.time, c.subject)!;
    if (this.commitIds.size >= MEMO_COMMITS) this.commitIds.clear();
    this.commitIds.set(ownString(sha), Number(r.id));
    return Number(r.id);
  }

  /** Hunks overlapping lines start..end (whole file when omitted). */
  hunks(blameId: number, start = 1, end = Number.MAX_SAFE_INTEGER): BlameHunk[] {
    return this.db
      .prepare(
        `SELECT h.start, h.end, lower(hex(c.sha)) AS sha, coalesce(op.path, bp.path) AS orig_path, h.orig_start
           FROM blame_hunks h JOIN blame_commits c ON c.id = h.commit_id
           JOIN blames b ON b.id = h.blame_id JOIN paths bp ON bp.id = b.path_id LEFT JOIN paths op ON op.id = h.orig_path_id
          WHERE h.blame_id = ? AND h.end >= ? AND h.start <= ? ORDER BY h.start`,
      )
      .all(blameId, start, end)
      .map((r) => ({ start: Number(r.start), end: Number(r.end), sha: String(r.sha), origPath: String(r.orig_path), origStart: Number(r.orig_start) }));
  }

  /** Author, email, time and subject of each commit a blame names (remembered: they change only with the mailmap, which empties the index). */
  commits(shas: Iterable<string>): Map<string, BlameCommit> {
    const out = new Map<string, BlameCommit>();
    const st = this.db.prepare("SELECT p.author, p.email, c.time, c.subject FROM blame_commits c JOIN people p ON p.id = c.person_id WHERE c.sha = ?");
    for (const sha of shas) {
      if (out.has(sha)) continue;
      let c = this.commitMemo.get(sha);
      if (!c) {
        const r = st.get(objectBytes(sha));
        if (!r) continue;
        c = { author: String(r.author), email: String(r.email), time: Number(r.time), subject: String(r.subject) };
        if (this.commitMemo.size >= MEMO_COMMITS) this.commitMemo.clear();
        this.commitMemo.set(sha, c);
      }
      out.set(sha, c);
    }
    return out;
  }

  /** Lines, commits and newest commit time per author (name and email) over the given blames: what contributors sums. */
  authors(blameIds: number[]): { author: string; email: string; lines: number; commits: number; last: number }[] {
    const bySha = new Map<string, number>();
    for (const id of blameIds) for (const [sha, lines] of this.linesBySha(id)) bySha.set(sha, (bySha.get(sha) ?? 0) + lines);
    const facts = this.commits(bySha.keys());
    const byAuthor = new Map<string, { author: string; email: string; lines: number; commits: number; last: number }>();
    for (const [sha, lines] of bySha) {
      const c = facts.get(sha)!;
      const key = `${c.author}\0${c.email}`;
      const a = byAuthor.get(key) ?? { author: c.author, email: c.email, lines: 0, commits: 0, last: 0 };
      a.lines += lines;
      a.commits += 1;
      a.last = Math.max(a.last, c.time);
      byAuthor.set(key, a);
    }
    return [...byAuthor.values()];
  }

  /** Lines per commit (sha) in one blame. */
  linesByCommit(blameId: number): ReadonlyMap<string, number> {
    return this.linesBySha(blameId);
  }

  /** Lines per commit in one blame, remembered: a saved blame never changes (a new answer is a new row). */
  private linesBySha(blameId: number): Map<string, number> {
    let m = this.lineMemo.get(blameId);
    if (!m) {
      m = new Map();
      for (const r of this.db.prepare("SELECT lower(hex(c.sha)) AS sha, sum(h.end - h.start + 1) AS lines FROM blame_hunks h JOIN blame_commits c ON c.id = h.commit_id WHERE h.blame_id = ? GROUP BY h.commit_id").all(blameId)) m.set(String(r.sha), Number(r.lines));
      if (this.lineMemo.size >= MEMO_BLAMES) this.lineMemo.clear();
      this.lineMemo.set(blameId, m);
    }
    return m;
  }

  /** Drops what is remembered in memory (the tables were emptied). */
  forget(): void {
    this.found.clear();
    this.lineMemo.clear();
    this.commitMemo.clear();
    this.commitIds.clear();
  }

  /** Files of the stored tree whose current content has a cached blame. */
  blamedInTree(): number {
    return Number(
      this.db
        .prepare(
          "SELECT count(*) AS n FROM tree t WHERE t.type = 'blob' AND t.mode <> '120000' AND EXISTS (SELECT 1 FROM blames b WHERE b.path_id = t.path_id AND b.blob = t.blob AND b.binary = 0)",
        )
        .get()!.n,
    );
  }

  /**
   * Files of the tree the background pass does not blame: symlinks, blobs known to be binary (line
   * count or blame says so), and text files over `maxBytes` not blamed yet (left until someone asks).
   */
  unblamableInTree(maxBytes: number): number {
    return Number(
      this.db
        .prepare(
          `SELECT count(*) AS n FROM tree t WHERE t.type = 'blob' AND (t.mode = '120000'
             OR EXISTS (SELECT 1 FROM blob_lines l WHERE l.blob = t.blob AND l.lines IS NULL)
             OR EXISTS (SELECT 1 FROM blames b WHERE b.path_id = t.path_id AND b.blob = t.blob AND b.binary = 1)
             OR (t.size > ? AND NOT EXISTS (SELECT 1 FROM blames b WHERE b.path_id = t.path_id AND b.blob = t.blob)))`,
        )
        .get(maxBytes)!.n,
    );
  }

  /**
   * A text blame saved for `path` with this content, whatever its key: what an imported index
   * knows of a file at its export head, where a shallow clone cannot blame past its boundary.
   */
  byContent(path: string, blob: string): CachedBlame | undefined {
    const pathId = this.history.pathId(path);
    if (pathId === undefined) return undefined;
    const r = this.db.prepare("SELECT id, lines, boundary FROM blames WHERE path_id = ? AND blob = ? AND binary = 0 ORDER BY id LIMIT 1").get(pathId, objectBytes(blob));
    return r ? { id: Number(r.id), lines: Number(r.lines), binary: false, boundary: new Set(String(r.boundary).split(" ").filter(Boolean)) } : undefined;
  }

  /** Whether a blame under this key is cached. */
  has(key: string): boolean {
    return this.found.has(key) || this.db.prepare("SELECT 1 FROM blames WHERE key = ?").get(keyBytes(key)) !== undefined;
  }
}
