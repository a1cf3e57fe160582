/** Blames git could not make (an object missing from a damaged clone), kept in the index so a restarted daemon or a new CLI does not ask git again. */
import { createHash } from "node:crypto";
import type { SqlDatabase } from "../runtime/index.ts";

export interface BlameFailure {
  path: string;
  code: string;
  message: string;
  /** When git failed, ms since the epoch. */
  at: number;
}

/** Keys as the blames table hashes them: a path of any length makes a 20-byte key. */
function keyBytes(key: string): Uint8Array {
  return createHash("sha1").update(key).digest();
}

export class BlameFailureStore {
  constructor(private readonly db: SqlDatabase) {}

  /** The failure kept under `key`, when it happened at or after `since`; an older one is dropped (may be asked of git again). */
  find(key: string, since: number): BlameFailure | undefined {
    const r = this.db.prepare("SELECT path, code, message, at FROM blame_failures WHERE key = ?").get(keyBytes(key));
    if (!r) return undefined;
    if (Number(r.at) < since) {
      this.drop(key);
      return undefined;
    }
    return { path: String(r.path), code: String(r.code), message: String(r.message), at: Number(r.at) };
  }

  save(key: string, f: BlameFailure): void {
    this.db.prepare("INSERT OR REPLACE INTO blame_failures (key, path, code, message, at) VALUES (?, ?, ?, ?, ?)").run(keyBytes(key), f.path, f.code, f.message, f.at);
  }

  drop(key: string): void {
    this.db.prepare("DELETE FROM blame_failures WHERE key = ?").run(keyBytes(key));
  }

  /** How many failures since `since`, and the first by path ("path: why"). */
  since(since: number): { count: number; first?: string } {
    const r = this.db.prepare("SELECT count(*) AS n, min(path || ': ' || message) AS first FROM blame_failures WHERE at >= ?").get(since)!;
    return { count: Number(r.n), ...(r.first !== null && r.first !== undefined ? { first: String(r.first) } : {}) };
  }
}
