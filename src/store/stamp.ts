/** A value that changes whenever the database does: rows written by this connection (total_changes) or commits by another (data_version). */
import type { SqlDatabase } from "../runtime/index.ts";

export function dbStamp(db: SqlDatabase): string {
  const r = db.prepare("SELECT total_changes() AS n").get()!;
  const v = db.prepare("PRAGMA data_version").get()!;
  return `${r.n}:${v.data_version}`;
}
