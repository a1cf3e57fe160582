/**
 * Keeping an open repository's index at the HEAD it follows: whether it is fresh, and updates,
 * one at a time, after the questions reading it, each followed by the warm-up.
 */
import { LoreError } from "../errors.ts";
import { readHeadCommit } from "../git/head-file.ts";
import type { Repo } from "../git/repo.ts";
import type { RepoIndex } from "../index/repo-index.ts";
import { fileStamps } from "../queries/file-stamps.ts";
import { log } from "./lifecycle.ts";
import type { OpenIndex, OpenRepo } from "./repo-table.ts";

/** How long an update waits for the questions in flight to finish before it writes anyway. */
const DRAIN_MS = 2000;

/** What a worktree's kept answers were made at: its HEAD and its own files that change answers. */
export function treeStamp(repo: Repo): string {
  return `${readHeadCommit(repo)}|${fileStamps(repo)}`;
}

/** Resolves once no question reads the index (or after DRAIN_MS: a long question must not hold back every update). */
async function drain(open: OpenIndex): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (open.readers > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
}

/**
 * True when the index is at the HEAD it follows (the main worktree's), as git's files name it
 * now, and nobody else wrote it since (a --no-daemon lore may have started it over): then a
 * question needs no git at all.
 */
export function isFresh(shared: OpenIndex): boolean {
  const { index } = shared;
  if (index.store.syncWithOthers()) return false;
  const head = readHeadCommit(index.repo);
  if (!head) return false;
  const { store } = index;
  const indexed = store.meta("indexedHead");
  return head === indexed && store.meta("treeHead") === indexed && fileStamps(index.repo) === shared.stamps;
}

/** True while a repository's history has never been indexed, and it has commits to index. */
export function noHistoryYet(shared: OpenIndex): boolean {
  return shared.index.indexedHead === undefined && !!readHeadCommit(shared.index.repo);
}

/** Resolves once the index is fresh for a question in `open`: at once, after the update running, or after a new one. */
export async function ready(open: OpenRepo): Promise<void> {
  const shared = open.shared;
  if (isFresh(shared)) return;
  if (shared.updating) {
    await shared.updating.catch(() => {});
    if (isFresh(shared)) return;
  }
  await update(shared, open.index);
}

/**
 * Brings the index to the HEAD it follows (RepoIndex runs updates one at a time, each asking
 * git for HEAD) through `via` (the worktree asking: it knows which HEAD to follow when the main
 * one names no commit), then restarts the warm-up. Every worktree's kept answers go.
 */
export function update(shared: OpenIndex, via: RepoIndex = shared.index): Promise<void> {
  const stamps = fileStamps(shared.index.repo);
  const before = shared.index.indexedHead;
  const started = Date.now();
  const p = drain(shared)
    .then(() => via.refresh())
    .finally(() => {
      for (const t of shared.trees) t.answers.clear();
    })
    .then((head) => {
      const restamped = shared.stamps !== stamps;
      shared.stamps = stamps;
      if (head !== before) log(`${shared.index.repo.root}: indexed ${before ? before.slice(0, 12) + ".." : ""}${head.slice(0, 12)} in ${Date.now() - started} ms`);
      // A linked worktree's commit moves no indexed head: the pass has nothing new to do.
      if (head !== before || restamped || !shared.warmed || shared.index.store.meta("indexedHead") !== before) shared.warmup.kick();
      shared.warmed = true;
    });
  shared.updating = p;
  p.catch(() => {}).finally(() => {
    if (shared.updating === p) shared.updating = undefined;
  });
  return p;
}

/** A watched repository's HEAD or refs moved: its index follows, updated through a worktree asked about (the main one may name no commit). */
export function updateOnChange(shared: OpenIndex): void {
  const via = shared.trees.values().next().value?.index ?? shared.index;
  update(shared, via).catch((err) => {
    if (!(err instanceof LoreError && err.code === "NO_COMMITS")) log(`updating ${shared.index.repo.root}: ${err instanceof Error ? err.message : String(err)}`);
  });
}
