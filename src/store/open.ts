/** Opens a repository's index file: WAL, migrated to the current schema, rebuilt when corrupt or foreign. */
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { runtime, type SqlDatabase } from "../runtime/index.ts";
import { LoreError, toLoreError } from "../errors.ts";
import { isBusy, withLockSync } from "./file-lock.ts";
import { sleepSync } from "../sleep-sync.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";

export interface OpenedDatabase {
  db: SqlDatabase;
  /** Why the file was thrown away and rebuilt, when it was. */
  rebuilt?: string;
}

function removeDatabaseFiles(path: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

function configure(db: SqlDatabase): void {
  // First: another lore opening or writing the same file at this moment is waited for, not an error.
  db.exec("PRAGMA busy_timeout = 10000");
  enableWal(db);
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA temp_store = MEMORY");
  db.exec("PRAGMA cache_size = -32000");
  // A WAL keeps the size of its biggest batch (4 MB, more than a small repository's index) unless told.
  db.exec("PRAGMA journal_size_limit = 1048576");
}

/**
 * Switches a new file to WAL. Several processes creating the index at once collide here, and
 * SQLite reports that collision at once instead of waiting (seen with 12 processes once the
 * schema holds an FTS5 table): wait a little and try again, for up to ~2 s.
 */
function enableWal(db: SqlDatabase): void {
  for (let attempt = 0; ; attempt++) {
    try {
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (err) {
      if (attempt >= 100 || !/database is locked|busy/i.test(err instanceof Error ? err.message : String(err))) throw err;
      sleepSync(20);
    }
  }
}

function userVersion(db: SqlDatabase): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
}

/** Test knob: LORE_TEST_MIGRATE_HOLD_MS keeps a migration's transaction open that long (a test kills lore meanwhile). */
function holdForTest(): void {
  const ms = Number(process.env.LORE_TEST_MIGRATE_HOLD_MS);
  if (!(ms > 0)) return;
  process.stderr.write("lore: migrating the index (held for a test)\n");
  sleepSync(ms);
}

function migrate(db: SqlDatabase): void {
  let v = userVersion(db);
  while (v < SCHEMA_VERSION) {
    db.exec("BEGIN IMMEDIATE");
    try {
      // Another process may have migrated while we waited for the lock.
      if (userVersion(db) === v) {
        db.exec(MIGRATIONS[v]!);
        db.exec(`PRAGMA user_version = ${v + 1}`);
        holdForTest();
      }
      db.exec("COMMIT");
    } catch (err) {
      try {
        db.exec("ROLLBACK");
      } catch {
        // SQLite already rolled back (a full disk does that); the first error is the one to report.
      }
      throw err;
    }
    v = userVersion(db);
  }
}

/** The file and its log as they are now: any write since changes it. */
function stampOf(path: string): string {
  const of = (f: string) => {
    const st = statSync(f, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}` : "-";
  };
  return `${of(path)} ${of(path + "-wal")}`;
}

/** Index files this process checked whole a moment ago (an import's integrity check), as they were then. */
const checkedWhole = new Map<string, string>();

/** Says that `path` was checked whole by SQLite just now: its next open here skips quick_check, if it is unchanged. */
export function checkedJustNow(path: string): void {
  checkedWhole.set(path, stampOf(path));
}

/** True once for a file checkedJustNow named, when nothing has written to it since. */
function stillChecked(path: string): boolean {
  const stamp = checkedWhole.get(path);
  checkedWhole.delete(path);
  return stamp !== undefined && stamp === stampOf(path);
}

/** Checks that the file is an index lore can use; returns why not, or null. `former`: the identity an older lore gave the same repository. */
function problem(db: SqlDatabase, checked: boolean, repoRoot: string, former?: string): string | null {
  const ok = checked ? { ok: "ok" } : db.prepare("PRAGMA quick_check(1)").get();
  if (!ok || Object.values(ok)[0] !== "ok") return "the index file was corrupt";
  const v = userVersion(db);
  if (v > SCHEMA_VERSION) return `the index was written by a newer lore (schema ${v})`;
  if (v === SCHEMA_VERSION) {
    const root = db.prepare("SELECT value FROM meta WHERE key = 'repoRoot'").get();
    if (root && root.value !== repoRoot && root.value !== former) return "the index belonged to another repository";
  }
  return null;
}

function tryOpen(path: string, repoRoot: string, former?: string): { db: SqlDatabase } | { reason: string } {
  let db: SqlDatabase | undefined;
  // Before this open: opening in WAL mode writes the log's header.
  const checked = stillChecked(path);
  try {
    db = runtime.openDatabase(path);
    configure(db);
    const reason = problem(db, checked, repoRoot, former);
    if (reason) {
      db.close();
      return { reason };
    }
    migrate(db);
    // OR IGNORE: another process opening the new file at the same time may have written it first.
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('repoRoot', ?)").run(repoRoot);
    if (former !== undefined) db.prepare("UPDATE meta SET value = ? WHERE key = 'repoRoot' AND value = ?").run(repoRoot, former);
    return { db };
  } catch (err) {
    try {
      db?.close();
    } catch {}
    const msg = err instanceof Error ? err.message : String(err);
    // Only a file SQLite calls damaged is thrown away; anything else (a full disk, no
    // permission) must leave the user's index alone.
    if (/not a database|malformed|corrupt|file is encrypted/i.test(msg)) return { reason: "the index file was corrupt" };
    const mapped = toLoreError(err);
    if (mapped.code !== "INTERNAL") throw mapped;
    throw new LoreError("INDEX_WRITE_FAILED", `lore cannot open its index at ${path}: ${msg}. Check that LORE_HOME (${dirname(dirname(dirname(path)))}) is a writable folder with free space.`, { cause: err });
  }
}

/**
 * An error of opening a file another process is creating: busy, or the full-text table's constructor
 * failing (SQLite's word for a busy read of its config while the schema is written; seen in CI with
 * eight processes opening a new index at once).
 */
function whileCreated(err: unknown): boolean {
  return isBusy(err) || /vtable constructor failed/i.test(String((err as { message?: unknown })?.message ?? ""));
}

/** How long a process waits for another one creating or rebuilding the same index file. */
const CREATE_WAIT_MS = 60_000;

/**
 * Opens (creating, migrating or rebuilding) the index at `path` for the repository `repoRoot`
 * names (its common git dir); `former` is the name an older lore wrote in it (the work tree's root).
 * A file that exists is opened at once. Making a new file, and throwing a bad one away, take turns
 * under <index>.open-lock: without them, processes starting together on a new index collide
 * while one creates it, and one could take a file still being created for a damaged one.
 */
export function openIndexDatabase(path: string, repoRoot: string, former?: string): OpenedDatabase {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    try {
      const first = tryOpen(path, repoRoot, former);
      if ("db" in first) return { db: first.db };
    } catch (err) {
      // tryOpen wraps SQLite's error: a file held by a process creating it is retried below.
      if (!whileCreated(err) && !whileCreated((err as Error).cause)) throw err;
    }
  }
  const opened = withLockSync(`${path}.open-lock`, CREATE_WAIT_MS, () => {
    // Another process may have made or mended the file while this one waited.
    const first = tryOpen(path, repoRoot, former);
    if ("db" in first) return { db: first.db };
    removeDatabaseFiles(path);
    const second = tryOpen(path, repoRoot);
    if ("db" in second) return { db: second.db, rebuilt: first.reason };
    throw new LoreError("INDEX_CORRUPT", `lore could not create its index at ${path}: ${second.reason}. Remove that folder and try again.`);
  });
  if (opened) return opened;
  throw new LoreError("INDEX_BUSY", `Another lore process has been creating this repository's index at ${path} for a minute; try again when it is done.`);
}
