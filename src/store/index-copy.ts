/**
 * The SQL of carrying an index to another machine: a copy with nothing of this machine in it (export),
 * and a checked copy's rows put in place of the live index's, in one transaction (import).
 */
import { runtime, type SqlDatabase } from "../runtime/index.ts";
import { referenceDatabase } from "./foreign-index.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";

/** Meta that describes the index's content: it travels. The rest (repoRoot, rebuilt, times, fingerprint) is this machine's. */
export const PORTABLE_META = [
  "indexedHead",
  "treeHead",
  "churnHead",
  "codeHead",
  "codeWords",
  "codeBatches",
  "truncated",
  "historyStops",
  "historyWhole",
  "unreadableContent",
  "codeUnreadable",
  // The commits provenance has marked (by row id, which travels with the rows): the import marks only new ones.
  "provenanceThrough",
  // The tags and notes refs the releases and note agents were read from: a clone with the same ones reads them
  // again (hono's 445 tags: rev-list of their parents, ~60-80 ms) only when they differ, as after new commits.
  "releaseTags",
  "agentNotes",
] as const;

/** Caches of this machine: line histories keep whole answers (which name the repository's path), blame failures a damaged clone's own. */
const LOCAL_TABLES = ["line_histories", "blame_failures"];

const quoted = (path: string) => `'${path.replace(/'/g, "''")}'`;
const metaList = PORTABLE_META.map((k) => `'${k}'`).join(", ");

/** The tables holding rows (not the full-text index, rebuilt from commits on import, nor its shadow tables). */
function dataTables(db: SqlDatabase, schema = "main"): string[] {
  return db
    .prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'message_fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .column()
    .map(String);
}

/**
 * Writes a consistent snapshot of `db` to `dest` (a new file), then takes out of the copy what belongs to
 * this machine: meta but PORTABLE_META, the local caches, the full-text index (rebuilt on import); compacted.
 */
export function exportCopy(db: SqlDatabase, dest: string): void {
  db.exec(`VACUUM INTO ${quoted(dest)}`);
  const copy = runtime.openDatabase(dest);
  try {
    copy.exec("PRAGMA journal_mode = DELETE");
    copy.exec(`DELETE FROM meta WHERE key NOT IN (${metaList})`);
    for (const t of LOCAL_TABLES) copy.exec(`DELETE FROM ${t}`);
    copy.exec("INSERT INTO message_fts (message_fts) VALUES ('delete-all')");
    copy.exec("VACUUM");
  } finally {
    copy.close();
  }
}

/**
 * A file at schema `version` (older than lore's, checked) copied into a new database made by lore's own
 * migrations at that version, then migrated as the store migrates: the import then reads a current file.
 */
export function migratedCopy(from: string, dest: string, version: number): void {
  const db = runtime.openDatabase(dest);
  try {
    for (let v = 0; v < version; v++) db.exec(MIGRATIONS[v]!);
    db.exec(`ATTACH DATABASE ${quoted(from)} AS src`);
    db.exec("BEGIN");
    for (const t of dataTables(db)) db.exec(`DELETE FROM main.${t}; INSERT INTO main.${t} SELECT * FROM src.${t}`);
    // An older schema may lack the marks (or mark otherwise): every commit is marked again after the import.
    db.exec("DELETE FROM main.meta WHERE key = 'provenanceThrough'");
    db.exec("COMMIT");
    db.exec("DETACH DATABASE src");
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  } finally {
    db.close();
  }
}

/**
 * The end of both ways of adopting: `meta` set, a lying mark count dropped. The message search is empty
 * here (checked, or emptied) and marked as holding no commit: it is made from the commits, never taken
 * from the file, by the first message search (in its transaction), the daemon's pass or lore index build.
 */
function finishAdopt(db: SqlDatabase, meta: Record<string, string>): void {
  const set = db.prepare("INSERT INTO main.meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  for (const [k, v] of Object.entries(meta)) set.run(k, v);
  // A mark count past the commits the file holds would leave new commits unmarked: then all are marked again.
  db.exec("DELETE FROM main.meta WHERE key = 'provenanceThrough' AND NOT (value GLOB '[0-9]*' AND value NOT GLOB '*[^0-9]*' AND length(value) < 16 AND CAST(value AS INTEGER) <= (SELECT coalesce(max(id), 0) FROM main.commit_rows))");
  db.exec("DELETE FROM main.meta WHERE key = 'messagesIndexed'");
}

/**
 * Puts the rows of `file` (a checked index at lore's schema) in place of every row of the live index `db`,
 * keeping its identity (repoRoot), then `meta`; empties the message search (finishAdopt). One
 * transaction: a reader sees the old index or the new one, and a failure (a full disk) leaves the old.
 */
export function adoptRows(db: SqlDatabase, file: string, meta: Record<string, string>): void {
  db.exec(`ATTACH DATABASE ${quoted(file)} AS src`);
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      const local = new Set(LOCAL_TABLES);
      for (const t of dataTables(db)) {
        if (t === "meta") continue;
        db.exec(`DELETE FROM main.${t}`);
        if (!local.has(t)) db.exec(`INSERT INTO main.${t} SELECT * FROM src.${t}`);
      }
      db.exec("INSERT INTO message_fts (message_fts) VALUES ('delete-all')");
      db.exec("DELETE FROM main.meta WHERE key <> 'repoRoot'");
      db.exec(`INSERT INTO main.meta (key, value) SELECT key, value FROM src.meta WHERE key IN (${metaList})`);
      finishAdopt(db, meta);
      db.exec("COMMIT");
    } catch (err) {
      try {
        db.exec("ROLLBACK");
      } catch {}
      throw err;
    }
  } finally {
    db.exec("DETACH DATABASE src");
  }
}

/** The rows of the message search's own tables, each value quoted (its type kept), read as plain tables: FTS5 never runs. */
function searchRows(db: SqlDatabase): string {
  const queries = [
    "SELECT id, quote(block) AS q FROM message_fts_data ORDER BY id",
    "SELECT quote(segid) AS s, quote(term) AS t, quote(pgno) AS p FROM message_fts_idx ORDER BY segid, term",
    "SELECT id, quote(sz) AS q FROM message_fts_docsize ORDER BY id",
    "SELECT quote(k) AS k, quote(v) AS v FROM message_fts_config ORDER BY k",
  ];
  return JSON.stringify(queries.map((q) => db.prepare(q).all()));
}

let emptySearch: string | undefined;

/** searchRows() of an empty message search, as lore's migrations make it (an export empties its search to this). */
function emptySearchRows(): string {
  return (emptySearch ??= searchRows(referenceDatabase(SCHEMA_VERSION)));
}

/**
 * Makes a checked, staged index file (at lore's schema) what adoptRows would make of an empty index, in
 * the file itself, so that where there is no index yet it can become the index without its rows copied
 * twice. Only when the file's message search is byte for byte an empty one (an export's): FTS5 then
 * reads nothing of the file's making. False, with the file unchanged, when it is not (adoptRows instead).
 */
export function adoptInPlace(file: string, meta: Record<string, string>): boolean {
  const db = runtime.openDatabase(file);
  try {
    db.exec("PRAGMA trusted_schema = OFF");
    db.exec("BEGIN IMMEDIATE");
    if (searchRows(db) !== emptySearchRows()) {
      db.exec("ROLLBACK");
      return false;
    }
    db.exec(`DELETE FROM meta WHERE key NOT IN (${metaList})`);
    for (const t of LOCAL_TABLES) db.exec(`DELETE FROM ${t}`);
    finishAdopt(db, meta);
    db.exec("COMMIT");
    db.exec("PRAGMA journal_mode = WAL");
    return true;
  } finally {
    db.close();
  }
}
