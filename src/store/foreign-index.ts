/**
 * Reads an index file lore did not write (an import): only plain reads, and only once its schema is
 * exactly the one lore's own migrations make, so no view, trigger or odd object of the file runs.
 */
import { runtime, type SqlDatabase } from "../runtime/index.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import { objectBytes } from "./tree-store.ts";

/** A commit as the file records it: enough to compare with git's own object. */
export interface ForeignCommit {
  sha: string;
  /** Empty where the file's history stopped (a shallow or capped index). */
  parents: string[];
  time: number;
  commitTime: number;
}

/** The schema objects (type, name, table, SQL) of a database, sorted: two equal lists are the same schema. */
function schemaOf(db: SqlDatabase): string[] {
  return db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    .all()
    .map((r) => JSON.stringify([r.type, r.name, r.tbl_name, r.sql]));
}

let reference: { version: number; db: SqlDatabase } | undefined;

/**
 * An empty database as lore's migrations make it at `version`, in memory: made once for the version asked
 * last (an import's schema check and its test of an empty message search read the same one). Read only.
 */
export function referenceDatabase(version: number): SqlDatabase {
  if (reference?.version !== version) {
    const db = runtime.openDatabase(":memory:");
    try {
      for (let v = 0; v < version; v++) db.exec(MIGRATIONS[v]!);
    } catch (err) {
      db.close();
      throw err;
    }
    reference?.db.close();
    reference = { version, db };
  }
  return reference.db;
}

/** The schema lore's migrations make at `version`. */
export function referenceSchema(version: number): string[] {
  return schemaOf(referenceDatabase(version));
}

/** Why a stored path cannot be a path of a work tree (absolute, `..`, NUL, empty parts), or null. */
export function badPath(path: string): string | null {
  if (path.length === 0 || path.includes("\0")) return "an empty path or one with a NUL byte";
  if (path.startsWith("/")) return `an absolute path (${JSON.stringify(path.slice(0, 80))})`;
  if (path.split("/").some((part) => part === "" || part === "." || part === ".." || part === ".git")) return `a path that leaves the work tree (${JSON.stringify(path.slice(0, 80))})`;
  return null;
}

export class ForeignIndex {
  private constructor(readonly db: SqlDatabase) {}

  /** Opens the file; nothing of it is trusted yet. Schema code in views and triggers may not call functions with side effects. */
  static open(path: string): ForeignIndex {
    const db = runtime.openDatabase(path);
    try {
      db.exec("PRAGMA trusted_schema = OFF");
      db.exec("PRAGMA query_only = ON");
    } catch (err) {
      db.close();
      throw err;
    }
    return new ForeignIndex(db);
  }

  get version(): number {
    return Number(this.db.prepare("PRAGMA user_version").get()?.user_version ?? -1);
  }

  /** True when the file's schema objects are exactly those of lore's schema at its version. */
  sameSchema(): boolean {
    const v = this.version;
    if (!(v >= 1 && v <= SCHEMA_VERSION)) return false;
    const own = referenceSchema(v);
    const theirs = schemaOf(this.db);
    return own.length === theirs.length && own.every((row, i) => row === theirs[i]);
  }

  /** SQLite's own check of every page, b-tree and index: "ok", or its first complaint. */
  integrity(): string {
    const rows = this.db.prepare("PRAGMA integrity_check(1)").all();
    return String(Object.values(rows[0] ?? {})[0] ?? "no answer");
  }

  /** The first path that cannot be a work tree's, with why; null when all are fine. */
  firstBadPath(): string | null {
    for (const p of this.db.prepare("SELECT path FROM paths").column()) {
      const why = typeof p === "string" ? badPath(p) : "a path that is not text";
      if (why) return why;
    }
    return null;
  }

  meta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
    return row ? String(row.value) : undefined;
  }

  /** How many commits the history holds (its reach). */
  reachCount(): number {
    return Number(this.db.prepare("SELECT count(*) AS n FROM reach").get()?.n ?? 0);
  }

  /** The commits at these places of the history's order (0: the head). */
  commitsAt(seqs: number[]): ForeignCommit[] {
    const st = this.db.prepare(
      "SELECT c.sha, c.parents, c.time, c.commit_time FROM reach r JOIN commits c ON c.id = r.commit_id WHERE r.seq = (SELECT min(seq) FROM reach) + ?",
    );
    return seqs.flatMap((s) => {
      const r = st.get(s);
      return r ? [{ sha: String(r.sha), parents: String(r.parents).split(" ").filter(Boolean), time: Number(r.time), commitTime: Number(r.commit_time) }] : [];
    });
  }

  /** Whether the history holds this commit. */
  hasCommit(sha: string): boolean {
    return this.db.prepare("SELECT 1 AS x FROM commit_rows WHERE sha = ?").get(objectBytes(sha)) !== undefined;
  }

  close(): void {
    this.db.close();
  }
}
