/**
 * The one-daemon lock: an exclusive SQLite transaction on <socket>.lock, held for the
 * daemon's whole life and released by the OS when the process dies, however it dies.
 */
import { runtime, type SqlDatabase } from "../runtime/index.ts";

export interface Lock {
  release(): void;
}

/** Takes the lock now, or returns null when another process holds it. */
export function tryLock(path: string): Lock | null {
  let db: SqlDatabase | undefined;
  try {
    db = runtime.openDatabase(path);
    db.exec("PRAGMA busy_timeout = 0");
    // Nothing is ever written: no journal file to leave behind (the pragma itself fails while another holds the lock).
    db.exec("PRAGMA journal_mode = OFF");
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    try {
      db?.close();
    } catch {}
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
  const lock = tryLock(path);
  lock?.release();
  return lock === null;
}
