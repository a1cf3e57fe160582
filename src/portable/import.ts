/**
 * `lore index import SOURCE`: every check before anything changes — the header, the size, the
 * checksum, SQLite's integrity check, the schema, the paths, that it is this repository's history —
 * then the index replaced in one transaction (through the daemon when one runs), then caught up to HEAD.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { health, rpcCall } from "../client/rpc-client.ts";
import { daemonPaths } from "../client/socket-path.ts";
import { LoreError } from "../errors.ts";
import { currentHead, isShallow, type Repo } from "../git/repo.ts";
import { gitMaybe } from "../git/run.ts";
import { indexPath } from "../index/index-file.ts";
import { indexOf } from "../index/indexes.ts";
import { mainWorktree } from "../index/shared-index.ts";
import { ForeignIndex } from "../store/foreign-index.ts";
import { migratedCopy } from "../store/index-copy.ts";
import { SCHEMA_VERSION } from "../store/schema.ts";
import { askGit, checkBelongs, type Asked } from "./belongs.ts";
import { fileStamp } from "./export.ts";
import { readHeader, type Manifest } from "./manifest.ts";
import type { PhaseLog } from "./phase-log.ts";
import { freeBytes, openSource } from "./source.ts";
import { adoptStaged, importPrefix, placeStaged, stagedPath } from "./swap.ts";
import { unpack } from "./unpack.ts";

const bad = (why: string) => new LoreError("BAD_INDEX_FILE", `This index file cannot be imported: ${why}. Nothing was changed.`);

/** What the manifest alone settles, before anything is unpacked. */
async function checkManifest(repo: Repo, m: Manifest, payload: number): Promise<void> {
  if (payload < m.payloadBytes) throw bad(`it is cut short (${payload.toLocaleString("en-US")} of ${m.payloadBytes.toLocaleString("en-US")} bytes after its header): an interrupted download or copy`);
  if (payload > m.payloadBytes) throw bad("it has bytes after the end its manifest gives");
  if (m.schema > SCHEMA_VERSION) throw new LoreError("INDEX_TOO_NEW", `This index was written by a newer lore (${m.lore}, schema ${m.schema}; this one reads schema ${SCHEMA_VERSION} and older): upgrade lore here, or export with this lore's version. Nothing was changed.`);
  const head = (await currentHead(repo)) ?? "";
  if (head && head.length !== m.head.length) throw new LoreError("INDEX_FOREIGN", `This index is of a repository with other object ids (${m.head.length === 64 ? "SHA-256" : "SHA-1"}); it cannot be this one's. Nothing was changed.`);
  // A full clone has every commit of its history: a head it lacks is another repository's (said before unpacking).
  if (!isShallow(repo) && (await gitMaybe(["cat-file", "-e", `${m.head}^{commit}`], { cwd: repo.root })) === null)
    throw new LoreError("INDEX_FOREIGN", `This index is of another repository: its head ${m.head.slice(0, 12)} is not a commit of this one. Nothing was changed.`);
  if (m.mailmap !== fileStamp(join(mainWorktree(repo).root, ".mailmap")))
    throw new LoreError("INDEX_MISMATCH", "This index was built with another .mailmap than this checkout's, so its authors would differ from git's here: export it again from a checkout with this .mailmap (or run lore index build). Nothing was changed.");
}

/** What only the unpacked database can say: its schema, SQLite's check, its paths, its head and commits. */
async function checkDatabase(repo: Repo, file: string, m: Manifest): Promise<number> {
  const db = ForeignIndex.open(file);
  try {
    const v = db.version;
    if (v !== m.schema) throw bad(`its database is at schema ${v}, not the ${m.schema} its manifest gives`);
    if (!db.sameSchema()) throw bad("its database has tables, views or triggers lore's schema does not");
    // git reads the sampled commits while SQLite checks every page (a file too damaged to sample: read again after).
    let asked: Asked | undefined;
    try {
      asked = askGit(repo, db);
    } catch {}
    const ok = db.integrity();
    if (ok !== "ok") throw bad(`SQLite finds it damaged (${ok.slice(0, 200)})`);
    const path = db.firstBadPath();
    if (path) throw bad(`it names ${path}`);
    if (db.meta("indexedHead") !== m.head) throw bad("its database is at another head than its manifest says");
    await checkBelongs(repo, db, m.head, asked);
    return db.reachCount();
  } finally {
    db.close();
  }
}

/** Removes what an import by this process left beside `repo`'s index: a signal ended it before its own clean-up. */
export function removeImportLeftovers(repo: Repo): void {
  const live = indexPath(repo.commonDir);
  const prefix = basename(importPrefix(live));
  let names: string[] = [];
  try {
    names = readdirSync(dirname(live)).filter((n) => n.startsWith(prefix));
  } catch {}
  for (const n of names) rmSync(join(dirname(live), n), { force: true });
}

/** Hands the staged file to the daemon serving this user, which swaps between two answers; false when none answers. */
async function throughDaemon(repo: Repo, file: string, head: string): Promise<boolean> {
  const paths = daemonPaths();
  if (!(await health(paths.socket))) return false;
  try {
    await rpcCall(paths.socket, "index.adopt", { repo: repo.root, file, head }, { timeoutMs: 30 * 60_000 });
    return true;
  } catch (err) {
    // A daemon of another build (without index.adopt) is left to see the new index as another process's writes.
    if (err instanceof LoreError && err.code !== "INTERNAL" && err.code !== "DAEMON_UNAVAILABLE") throw err;
    return false;
  }
}

/** True when the index at `live` is at `head` or at a commit after it. */
async function liveHolds(repo: Repo, live: string, head: string): Promise<boolean> {
  if (!existsSync(live)) return false;
  let at: string | undefined;
  try {
    const db = ForeignIndex.open(live);
    try {
      at = db.meta("indexedHead");
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
  return at !== undefined && (at === head || (await gitMaybe(["merge-base", "--is-ancestor", head, at], { cwd: repo.root })) !== null);
}

export interface Imported {
  head: string;
  commits: number;
  viaDaemon: boolean;
  /** True when the live index was already at the file's head or past it (keepNewer): nothing was unpacked or swapped. */
  unchanged?: boolean;
}

/**
 * Checks the index file `source` names and puts it in place of `repo`'s index; nothing changes when a check fails.
 * `adopt` does the swap where the index is served from this process (lore serve); else the user's daemon does, or this process.
 * With `keepNewer`, a file at a commit the live index already holds changes nothing (lore serve: the index caught up from it).
 * `early` runs once the manifest is checked, before the file is unpacked (lore index import starts its catch-up's git there).
 */
export async function importIndex(
  repo: Repo,
  source: string,
  headers: Record<string, string>,
  log: PhaseLog,
  adopt?: (file: string, head: string) => Promise<unknown>,
  keepNewer = false,
  early?: (m: Manifest) => Promise<void>,
): Promise<Imported> {
  log.begin();
  const live = indexPath(repo.commonDir);
  mkdirSync(dirname(live), { recursive: true, mode: 0o700 });
  const tag = Math.random().toString(36).slice(2, 10);
  const spooled = `${importPrefix(live)}${tag}.download`;
  const unpacked = `${importPrefix(live)}${tag}.unpacked`;
  const staged = stagedPath(live, tag);
  const temporary = [spooled, unpacked, staged];
  try {
    const src = await openSource(source, headers, spooled, freeBytes(dirname(live)));
    const { manifest: m, offset } = readHeader(src.path);
    if (keepNewer && (await liveHolds(repo, live, m.head))) return { head: m.head, commits: 0, viaDaemon: false, unchanged: true };
    await checkManifest(repo, m, statSync(src.path).size - offset);
    await early?.(m);
    if (m.bytes > freeBytes(dirname(live)))
      throw new LoreError("INDEX_WRITE_FAILED", `This index unpacks to ${m.bytes.toLocaleString("en-US")} bytes, more than is free for lore's folder; free some space (or point LORE_HOME at a disk with room). Nothing was changed.`);
    await unpack(src.path, offset, m, unpacked);
    if (src.temporary) rmSync(src.path, { force: true });
    const commits = await checkDatabase(repo, unpacked, m);
    // Older schema: copied into lore's own tables at that version, then migrated as the store migrates.
    if (m.schema < SCHEMA_VERSION) migratedCopy(unpacked, staged, m.schema);
    else renameSync(unpacked, staged);
    await log.done(`checked the index at ${m.head.slice(0, 12)}: ${commits.toLocaleString("en-US")} commits, ${m.whole ? "whole history" : "part of the history"}`);
    log.begin();
    const viaDaemon = adopt ? (await adopt(staged, m.head), true) : await throughDaemon(repo, staged, m.head);
    // No index here yet (a fresh sandbox): the checked file becomes it; else its rows replace the index's.
    if (!viaDaemon && !placeStaged(repo, live, staged, m.head)) await adoptStaged(indexOf(repo), staged, m.head);
    await log.done(`imported${viaDaemon ? " (the daemon serves it from its next answer)" : ""}`);
    return { head: m.head, commits, viaDaemon };
  } finally {
    for (const f of temporary) rmSync(f, { force: true });
  }
}
