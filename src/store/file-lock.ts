/**
 * A lock between processes: an exclusive SQLite transaction on a file of its own, released by
 * the OS when the process dies, however it dies. The daemon holds one on <socket>.lock for its
 * whole life; an index update holds one on <index>.update-lock while it writes.
 */
import { existsSync } from "node:fs";
import { runtime, type SqlDatabase } from "../runtime/index.ts";
import { sleepSync } from "../sleep-sync.ts";

export interface Lock {
  release(): void;
}

/** SQLite's answer when another connection holds the lock (Bun: SQLITE_BUSY; node:sqlite: "database is locked"). */
export function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return /BUSY|LOCKED/i.test(String(e?.code ?? "")) || /database is locked|busy/i.test(String(e?.message ?? ""));
}

/**
 * Takes the lock now, or returns null when another process holds it. `strict`: any other
 * failure (no such folder, no permission) is thrown instead of being taken for "held".
 */
export function tryLock(path: string, strict = false): Lock | null {
  let db: SqlDatabase | undefined;
  try {
    db = runtime.openDatabase(path);
    db.exec("PRAGMA busy_timeout = 0");
    // Nothing is ever written: no journal file to leave behind (the pragma itself fails while another holds the lock).
    db.exec("PRAGMA journal_mode = OFF");
    db.exec("BEGIN EXCLUSIVE");
  } catch (err) {
    try {
      db?.close();
    } catch {}
    if (strict && !isBusy(err)) throw err;
    return null;
  }
  const held = db;
  return {
    release() {
      try {
        held.exec("ROLLBACK");
        held.close();
      } catch {}
    },
  };
}

/** Whether some process (a running or starting daemon) holds the lock. */
export function isLocked(path: string): boolean {
  // A lock file that cannot even be opened (its folder not made yet) is held by nobody.
  if (!existsSync(path)) return false;
  try {
    const lock = tryLock(path, true);
    lock?.release();
    return lock === null;
  } catch {
    return false;
  }
}

/** How long a waiting lock sleeps between tries. */
const POLL_MS = 20;

/**
 * The polling loop of both forms below: tries the lock until it comes (returns it) or `timeoutMs`
 * passes (returns null), yielding between tries for the caller to wait POLL_MS its way, blocking or not.
 */
function* tries(path: string, timeoutMs: number): Generator<void, Lock | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lock = tryLock(path, true);
    if (lock) return lock;
    if (Date.now() > deadline) return null;
    yield;
  }
}

/** withLock for work that cannot await (opening a database): the wait blocks the thread. */
export function withLockSync<T>(path: string, timeoutMs: number, fn: () => T): T | null {
  const waiting = tries(path, timeoutMs);
  let step: IteratorResult<void, Lock | null>;
  while (!(step = waiting.next()).done) sleepSync(POLL_MS);
  const lock = step.value;
  if (!lock) return null;
  try {
    return fn();
  } finally {
    lock.release();
  }
}

/** Runs `fn` holding the lock at `path`, waiting for it (polling) up to `timeoutMs`; null when it never came. Throws when the lock file cannot be made at all. */
export async function withLock<T>(path: string, timeoutMs: number, fn: () => Promise<T>): Promise<T | null> {
  const waiting = tries(path, timeoutMs);
  let step: IteratorResult<void, Lock | null>;
  while (!(step = waiting.next()).done) await new Promise((r) => setTimeout(r, POLL_MS));
  const lock = step.value;
  if (!lock) return null;
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
