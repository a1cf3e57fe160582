/** Which files the warm-up (and `lore index build`) blame: those at HEAD not blamed yet, the most often changed first. */
import { isBlamed, MAX_WARM_BYTES, type BlameTarget } from "../index/blame.ts";
import type { RepoIndex, Scope } from "../index/repo-index.ts";
import { blameTarget } from "../queries/run/blame-file.ts";
import type { QueryContext } from "../queries/context.ts";

const SYMLINK = "120000";
/** Files are ranked by how often they changed in this many of the newest commits. */
const RANK_WINDOW = 5000;

/**
 * Files at HEAD not blamed yet, the most often changed first (what people ask about most). With
 * `all` (lore index build), every file, the large ones the warm-up leaves to a question too: an
 * exported index must hold the blame of every file, which a shallow clone cannot make below its boundary.
 */
export function blamePlan(ix: RepoIndex, all = false): BlameTarget[] {
  const head = ix.indexedHead;
  if (!head || ix.store.meta("treeHead") !== head) return [];
  const scope: Scope = { table: "reach", commit: head, atHead: true };
  const ctx = { index: ix } as QueryContext;
  // Recent activity ranks the files (and keeps this query short on a long history).
  const changes = new Map(ix.store.windows.activity({ scope: "reach", limit: RANK_WINDOW, since: null }).map((a) => [a.path, a.commits]));
  const targets = ix.store.tree
    .entries()
    .filter((e) => e.type === "blob" && e.mode !== SYMLINK && (all || (e.size ?? 0) <= MAX_WARM_BYTES))
    .sort((a, b) => (changes.get(b.path) ?? 0) - (changes.get(a.path) ?? 0) || (a.path < b.path ? -1 : 1))
    .map((e) => blameTarget(ctx, scope, e, true));
  return all ? targets : targets.filter((t) => !isBlamed(ix, t));
}
