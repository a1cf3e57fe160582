/**
 * Puts a checked index file in place of a repository's index: one SQLite transaction in the turn of
 * index work (never beside an update), so every reader sees the old index or the new one, never a mix.
 */
import { basename, dirname } from "node:path";
import { LoreError } from "../errors.ts";
import type { RepoIndex } from "../index/repo-index.ts";

/** The name an import gives the checked copy it hands over, in the index's own folder. */
export function stagedPath(indexPath: string, tag: string): string {
  return `${indexPath}.import-${process.pid}-${tag}.db`;
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
