/** Blames one file as of a scope, through the cache: what blame, intent and contributors share. */
import { blame, type BlameTarget, type BlameWatch } from "../../index/blame.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { CachedBlame } from "../../store/blame-store.ts";
import type { TreeEntry } from "../../git/records.ts";
import type { QueryContext } from "../context.ts";

export function blameTarget(ctx: QueryContext, scope: Scope, entry: TreeEntry, honourIgnoreRevs: boolean): BlameTarget {
  const t: BlameTarget = { path: entry.path, commit: scope.commit, honourIgnoreRevs };
  if (scope.atHead) {
    const lastTouch = ctx.index.lastTouch(entry.path, scope.commit);
    if (lastTouch) t.headKey = { blob: entry.blob, lastTouch };
    else t.headBlob = entry.blob;
  } else if (scope.worktreeHead) {
    // A linked worktree's HEAD: the same content with the same last change has the same blame as
    // at the indexed head, so a commit in the worktree re-blames only the files it changed.
    const pid = ctx.index.store.history.pathId(entry.path);
    const lastTouch = pid === undefined ? undefined : ctx.index.store.history.lastTouch(scope.table, pid);
    if (lastTouch) t.headKey = { blob: entry.blob, lastTouch };
  }
  return t;
}

export function blameFile(ctx: QueryContext, scope: Scope, entry: TreeEntry, honourIgnoreRevs: boolean, watch?: BlameWatch): Promise<CachedBlame> {
  return blame(ctx.index, blameTarget(ctx, scope, entry, honourIgnoreRevs), watch);
}
