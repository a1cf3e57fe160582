/** SQL over the tree of the indexed head and the line counts of blobs. */
import type { SqlDatabase } from "../runtime/index.ts";
import type { TreeEntry } from "../git/records.ts";
import type { HistoryStore } from "./history-store.ts";
import { dbStamp } from "./stamp.ts";

/** An object id as the index keeps it: its bytes, half the size of its hex. */
export function objectBytes(hex: string): Uint8Array {
  return Buffer.from(hex, "hex");
}

export class TreeStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly history: HistoryStore,
  ) {}

  /** Replaces the stored tree (call inside a transaction). */
  replace(entries: TreeEntry[]): void {
    this.db.exec("DELETE FROM tree");
    const st = this.db.prepare("INSERT OR REPLACE INTO tree (path_id, mode, type, blob, size) VALUES (?, ?, ?, ?, ?)");
    for (const e of entries) st.run(this.history.ensurePathId(e.path), e.mode, e.type, objectBytes(e.blob), e.size);
  }

  private memo: { stamp: string; entries: readonly TreeEntry[] } | undefined;

  /** The whole tree, by path; read once per state of the index (shared: never to be changed by the caller). */
  entries(): readonly TreeEntry[] {
    const stamp = dbStamp(this.db);
    if (this.memo?.stamp === stamp) return this.memo.entries;
    const entries = this.db
      .prepare("SELECT p.path, t.mode, t.type, lower(hex(t.blob)) AS blob, t.size FROM tree t JOIN paths p ON p.id = t.path_id ORDER BY p.path")
      .all()
      .map((r) => ({ path: String(r.path), mode: String(r.mode), type: r.type as TreeEntry["type"], blob: String(r.blob), size: r.size === null ? null : Number(r.size) }));
    this.memo = { stamp, entries };
    return entries;
  }

  entry(path: string): TreeEntry | undefined {
    const r = this.db.prepare("SELECT p.path, t.mode, t.type, lower(hex(t.blob)) AS blob, t.size FROM tree t JOIN paths p ON p.id = t.path_id WHERE p.path = ?").get(path);
    return r ? { path: String(r.path), mode: String(r.mode), type: r.type as TreeEntry["type"], blob: String(r.blob), size: r.size === null ? null : Number(r.size) } : undefined;
  }

  /** Whether the stored tree has this path (by id): one lookup, not the whole tree. */
  hasPathId(pathId: number): boolean {
    return this.db.prepare("SELECT 1 FROM tree WHERE path_id = ?").get(pathId) !== undefined;
  }

  /** Whether the stored tree has `prefix` as a path, or paths under it as a folder: one range scan of the path index. */
  hasUnder(prefix: string): boolean {
    // Paths under "a/b" sort from "a/b/" up to "a/b0" ('0' follows '/').
    return (
      this.db
        .prepare("SELECT 1 FROM paths p JOIN tree t ON t.path_id = p.id WHERE p.path = ? OR (p.path >= ? AND p.path < ?) LIMIT 1")
        .get(prefix, `${prefix}/`, `${prefix}0`) !== undefined
    );
  }

  count(): number {
    return Number(this.db.prepare("SELECT count(*) AS n FROM tree WHERE type = 'blob'").get()!.n);
  }

  /** Line counts of blobs already measured; null means binary. */
  lineCounts(blobs: string[]): Map<string, number | null> {
    const out = new Map<string, number | null>();
    const st = this.db.prepare("SELECT lines FROM blob_lines WHERE blob = ?");
    for (const b of blobs) {
      const r = st.get(objectBytes(b));
      if (r) out.set(b, r.lines === null ? null : Number(r.lines));
    }
    return out;
  }

  saveLineCounts(counts: Map<string, number | null>): void {
    const st = this.db.prepare("INSERT OR REPLACE INTO blob_lines (blob, lines) VALUES (?, ?)");
    for (const [b, n] of counts) st.run(objectBytes(b), n);
  }
}
