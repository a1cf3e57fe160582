/** One repository's index: the database, its metadata, and the SQL of each part behind plain methods. */
import type { SqlDatabase } from "../runtime/index.ts";
import { openIndexDatabase } from "./open.ts";
import { HistoryStore } from "./history-store.ts";
import { BlameStore } from "./blame-store.ts";
import { TreeStore } from "./tree-store.ts";
import { WindowStore } from "./window-store.ts";
import { LogStore } from "./log-store.ts";
import { CochangeStore } from "./cochange-store.ts";
import { OwnershipStore } from "./ownership-store.ts";
import { SearchStore } from "./search-store.ts";
import { BlameFailureStore } from "./blame-failures.ts";
import { ProvenanceStore } from "./provenance-store.ts";
import { adoptRows } from "./index-copy.ts";

export type MetaKey =
  | "repoRoot"
  | "indexedHead"
  | "indexingHead"
  | "churnHead"
  | "lastIndexedAt"
  | "mailmap"
  | "shallow"
  | "maxCommits"
  | "truncated"
  | "rebuilt"
  | "treeHead"
  | "codeHead"
  | "codeWords"
  | "codeBatches"
  | "messagesIndexed"
  | "historyStops"
  // An object git could not read while filling the change index (a damaged clone): not tried again while it is missing.
  | "codeUnreadable"
  // The churn pass met a file git cannot read (a damaged clone): log and history then tell it from a binary one.
  | "unreadableContent"
  // Provenance (issue 40): the newest commit id marked, the tags and notes last read, and the refs' stamp they were read at.
  | "provenanceThrough"
  | "releaseTags"
  | "agentNotes"
  | "refsStamp"
  // "1": reach holds the whole history (built on a full clone, uncapped, or imported so): a shallow clone's depth does not change it.
  | "historyWhole"
  // "<head> <ISO time>": the index came from \`lore index import\` at that head (caught up from there since).
  | "imported";

export class Store {
  readonly history: HistoryStore;
  readonly blame: BlameStore;
  readonly tree: TreeStore;
  readonly windows: WindowStore;
  readonly log: LogStore;
  readonly cochange: CochangeStore;
  readonly ownership: OwnershipStore;
  readonly search: SearchStore;
  readonly blameFailures: BlameFailureStore;
  readonly provenance: ProvenanceStore;
  /** Grows each time this connection replaces the whole index (clear, import): a pass that began before writes no mark after. */
  epoch = 0;
  /** PRAGMA data_version when syncWithOthers last looked. */
  private dataVersion: number | undefined;

  private constructor(
    readonly db: SqlDatabase,
    readonly path: string,
    /** Why the index was rebuilt on open, if it was. */
    readonly rebuilt?: string,
  ) {
    this.history = new HistoryStore(db);
    this.blame = new BlameStore(db, this.history);
    this.tree = new TreeStore(db, this.history);
    this.windows = new WindowStore(db);
    this.log = new LogStore(db);
    this.cochange = new CochangeStore(db);
    this.ownership = new OwnershipStore(db);
    this.search = new SearchStore(db);
    this.blameFailures = new BlameFailureStore(db);
    this.provenance = new ProvenanceStore(db);
  }

  /** `repoRoot`: what the index is of (the common git dir); `former`: what an older lore called the same repository. */
  static open(path: string, repoRoot: string, former?: string): Store {
    const { db, rebuilt } = openIndexDatabase(path, repoRoot, former);
    const store = new Store(db, path, rebuilt);
    if (rebuilt) store.setMeta("rebuilt", `${new Date().toISOString()} ${rebuilt}`);
    return store;
  }

  meta(key: MetaKey): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
    return row ? String(row.value) : undefined;
  }

  setMeta(key: MetaKey, value: string | undefined): void {
    if (value === undefined) this.db.prepare("DELETE FROM meta WHERE key = ?").run(key);
    else this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  /** Runs `fn` in one write transaction: all of it lands, or none. */
  transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (err) {
      try {
        this.db.exec("ROLLBACK");
      } catch {}
      throw err;
    }
  }

  /**
   * Forgets what the parts remember in memory when another connection has written the file
   * since the last look (a `--no-daemon` lore beside the daemon; when it starts the index over,
   * row ids are handed out again). Cheap: one pragma. True when another connection wrote.
   */
  syncWithOthers(): boolean {
    const version = Number(this.db.prepare("PRAGMA data_version").get()!.data_version);
    if (version === this.dataVersion) return false;
    const seenBefore = this.dataVersion !== undefined;
    if (seenBefore) this.forget();
    this.dataVersion = version;
    return seenBefore;
  }

  /** Forgets what the parts remember in memory: the rows under them were replaced. */
  forget(): void {
    this.history.forget();
    this.blame.forget();
    this.cochange.forget();
    this.search.forget();
  }

  /** Empties every table but meta's identity: the next update indexes from scratch. */
  clear(): void {
    this.transaction(() => {
      for (const t of ["commit_rows", "people", "paths", "changes", "reach", "tree", "blob_lines", "blames", "blame_hunks", "blame_commits", "follow_origins", "merge_paths", "merge_diffs", "line_histories", "code_words", "code_postings", "code_batches", "code_unsure", "blame_failures", "commit_marks", "releases", "release_commits", "note_agents"])
        this.db.exec(`DELETE FROM ${t}`);
      // message_fts reads its text from commits: it forgets them all at once.
      this.db.exec("INSERT INTO message_fts (message_fts) VALUES ('delete-all')");
      this.db.exec("DELETE FROM meta WHERE key <> 'repoRoot'");
    });
    this.epoch++;
    this.forget();
  }

  /** Puts a checked index file's rows in place of this index's, in one transaction (lore index import), then `meta`. */
  adopt(file: string, meta: Record<string, string>): void {
    adoptRows(this.db, file, meta);
    this.epoch++;
    this.forget();
  }

  /** Moves the write-ahead log into the file and empties it (after a pass of writes: the log's disk is given back). */
  checkpoint(): void {
    // Never waits: with a reader on an old snapshot it does what it can, and the next one does the rest.
    this.db.exec("PRAGMA busy_timeout = 0");
    try {
      this.db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
    } catch {
      // Busy: another connection is checkpointing or writing.
    } finally {
      this.db.exec("PRAGMA busy_timeout = 10000");
    }
  }

  sizeBytes(): number {
    const pages = Number(this.db.prepare("PRAGMA page_count").get()?.page_count ?? 0);
    const size = Number(this.db.prepare("PRAGMA page_size").get()?.page_size ?? 0);
    return pages * size;
  }

  close(): void {
    this.db.close();
  }
}
