/**
 * Puts a checked index file in place of a repository's index: one SQLite transaction in the turn of
 * index work (never beside an update), so every reader sees the old index or the new one, never a mix.
 */
import { existsSync, linkSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { LoreError } from "../errors.ts";
import type { Repo } from "../git/repo.ts";
import { fingerprintOf } from "../index/fingerprint.ts";
import { defaultIndexOptions, type RepoIndex } from "../index/repo-index.ts";
import { withLockSync } from "../store/file-lock.ts";
import { ForeignIndex } from "../store/foreign-index.ts";
import { checkedJustNow } from "../store/open.ts";
import { adoptInPlace } from "../store/index-copy.ts";

/** How the name of every file an import by this process makes beside the index (downloaded, unpacked, staged) begins. */
export function importPrefix(indexPath: string): string {
  return `${indexPath}.import-${process.pid}-`;
}

/** The name an import gives the checked copy it hands over, in the index's own folder. */
export function stagedPath(indexPath: string, tag: string): string {
  return `${importPrefix(indexPath)}${tag}.db`;
}

/** True when `file` is a staged import of the index at `indexPath` (what the daemon accepts to adopt). */
export function isStaged(indexPath: string, file: string): boolean {
  return dirname(file) === dirname(indexPath) && basename(file).startsWith(`${basename(indexPath)}.import-`) && file.endsWith(".db");
}

/** Replaces every row of `ix`'s index with the staged file's; marks it imported at `head`, fingerprinted for this clone. */
export async function adoptStaged(ix: RepoIndex, file: string, head: string): Promise<void> {
  if (!isStaged(ix.store.path, file)) throw new LoreError("BAD_ARGUMENT", "lore adopts only an index file an import staged beside the index.");
  await ix.exclusive(() => {
    const now = new Date().toISOString();
    ix.store.adopt(file, { imported: `${head} ${now}`, lastIndexedAt: now });
    // Whole or not as the file says: the clone's depth counts only where the history is not whole.
    ix.store.setMeta("mailmap", ix.fingerprint());
    ix.forgetScopes();
    ix.store.checkpoint();
  });
}

/** How long placing waits for a process creating the index file (as opening one does). */
const PLACE_WAIT_MS = 60_000;

/**
 * Where `repo` (its main work tree) has no index yet, as in a fresh sandbox: the staged file is made final
 * in place (what adoptStaged writes) and linked in as the index, under the lock that creating one takes,
 * so no reader sees it half made. False when an index exists by then: adoptStaged swaps its rows instead.
 */
export function placeStaged(repo: Repo, live: string, file: string, head: string): boolean {
  if (repo.gitDir !== repo.commonDir || existsSync(live) || !isStaged(live, file)) return false;
  const copy = ForeignIndex.open(file);
  let whole: boolean;
  try {
    whole = copy.meta("historyWhole") === "1";
  } finally {
    copy.close();
  }
  const now = new Date().toISOString();
  if (!adoptInPlace(file, { imported: `${head} ${now}`, lastIndexedAt: now, mailmap: fingerprintOf(repo.root, repo.commonDir, whole, defaultIndexOptions()) })) return false;
  const placed = withLockSync(`${live}.open-lock`, PLACE_WAIT_MS, () => {
    if (existsSync(live)) return false;
    // A log or lock of an index removed earlier must not be read as this file's.
    for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(live + suffix, { force: true });
    linkSync(file, live);
    // Checked whole by SQLite a moment ago (import.ts): opening it next, for the catch-up, need not check it again.
    checkedJustNow(live);
    return true;
  });
  return placed === true;
}
