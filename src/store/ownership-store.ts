/** SQL for ownership: who changed each file how often, and who created it (degree-of-authorship needs both). */
import type { SqlDatabase } from "../runtime/index.ts";
import { dbStamp } from "./stamp.ts";

/** One file's history by person (key: mailmap name and email, NUL-separated): changes each, and the creator. */
export interface FileAuthorship {
  changes: Map<string, number>;
  /** Who made the oldest change of the path (under this name). */
  creator: string;
}

export class OwnershipStore {
  private memo: { key: string; files: Map<number, FileAuthorship | null> } | undefined;

  constructor(private readonly db: SqlDatabase) {}

  private stamp(scope: string): string {
    return `${scope}:${dbStamp(this.db)}`;
  }

  /** Each path's authorship in the scope's history, remembered while the index is unchanged; null for a path no commit of the scope touched. */
  authorship(scope: string, pathIds: number[], without: readonly number[] = []): Map<number, FileAuthorship | null> {
    // without: commits that only look like changes (a shallow clone's boundary, diffed against nothing).
    const key = `${this.stamp(scope)}:${without.join(",")}`;
    const skip = new Set(without);
    if (this.memo?.key !== key) this.memo = { key, files: new Map() };
    const files = this.memo.files;
    const st = this.db.prepare(
      `SELECT c.id AS id, c.author AS author, c.email AS email FROM changes ch JOIN ${scope} s ON s.commit_id = ch.commit_id JOIN commits c ON c.id = ch.commit_id WHERE ch.path_id = ? ORDER BY s.seq DESC`,
    );
    const out = new Map<number, FileAuthorship | null>();
    for (const id of pathIds) {
      let a = files.get(id);
      if (a === undefined) {
        a = null;
        for (const r of st.all(id)) {
          if (skip.has(Number(r.id))) continue;
          const who = `${r.author}\0${r.email}`;
          a ??= { changes: new Map(), creator: who };
          a.changes.set(who, (a.changes.get(who) ?? 0) + 1);
        }
        files.set(id, a);
      }
      out.set(id, a);
    }
    return out;
  }
}

/** The messages, by sha, of those commits among `shas` that name a co-author (a `Co-authored-by:` trailer). */
export function coauthoredMessages(db: SqlDatabase, shas: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const rows = db.prepare("SELECT c.sha AS sha, c.message AS message FROM json_each(?) j JOIN commit_rows r ON r.sha = unhex(j.value) JOIN commits c ON c.id = r.id WHERE c.message LIKE '%co-authored-by:%'").all(JSON.stringify(shas));
  for (const r of rows) out.set(String(r.sha), String(r.message));
  return out;
}
