/** The lines a change deletes or replaces, by the commit that last changed them: the cached blame of the old side. */
import { blameMany, leftOut } from "../../index/blame.ts";
import { lsTree } from "../../index/tree.ts";
import type { ChangedFile } from "../../git/parse-diff-hunks.ts";
import type { BlameHunk, TreeEntry } from "../../git/records.ts";
import type { QueryContext } from "../context.ts";
import { blameTarget } from "./blame-file.ts";

/** Regular files only: a symlink or a submodule has no lines to blame. */
const TEXT_MODES = new Set(["100644", "100755"]);

export interface Rewrites {
  /** Per changed file (its new path): full sha → old-side ranges, in the order the commits first appear. */
  byFile: Map<string, Map<string, [number, number][]>>;
  /** Rewritten lines per commit (full sha), over all files. */
  lines: Map<string, number>;
  /** "path: why" for each old-side file git could not blame (its rewrites unknown, the rest of the answer kept). */
  leftOut: string[];
}

/** The old side's name of a changed file. */
export function oldName(f: ChangedFile): string {
  return f.oldPath ?? f.path;
}

/** Cuts the blame's hunks (sorted by start) to the deleted ranges (sorted, disjoint), merging neighbours of one commit. */
export function rewrittenBy(hunks: BlameHunk[], ranges: [number, number][]): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  let h = 0;
  for (const [a, b] of ranges) {
    while (h < hunks.length && hunks[h]!.end < a) h++;
    for (let k = h; k < hunks.length && hunks[k]!.start <= b; k++) {
      const x = hunks[k]!;
      const start = Math.max(a, x.start);
      const end = Math.min(b, x.end);
      if (start > end) continue;
      const list = out.get(x.sha) ?? [];
      const last = list[list.length - 1];
      if (last && last[1] + 1 === start) last[1] = end;
      else list.push([start, end]);
      out.set(x.sha, list);
    }
  }
  return out;
}

export async function rewritesOf(ctx: QueryContext, oldSide: string, files: ChangedFile[]): Promise<Rewrites> {
  const byFile = new Map<string, Map<string, [number, number][]>>();
  const lines = new Map<string, number>();
  const asked = files.filter((f) => f.deleted.length > 0 && TEXT_MODES.has(f.oldMode));
  if (asked.length === 0) return { byFile, lines, leftOut: [] };
  const scope = await ctx.index.scope(oldSide);
  const entries = new Map<string, TreeEntry>();
  if (scope.atHead) {
    for (const f of asked) {
      const e = ctx.index.store.tree.entry(oldName(f));
      if (e) entries.set(e.path, e);
    }
  } else for (const e of await lsTree(ctx.index, scope.commit, asked.map(oldName))) entries.set(e.path, e);
  const targets = [...entries.values()].filter((e) => e.type === "blob").map((e) => blameTarget(ctx, scope, e, true));
  const blames = await blameMany(ctx.index, targets, ctx.blameWorkers);
  for (const f of asked) {
    const b = blames.get(oldName(f));
    if (!b || b.binary) continue;
    const first = f.deleted[0]![0];
    const last = f.deleted[f.deleted.length - 1]![1];
    const by = rewrittenBy(ctx.index.store.blame.hunks(b.id, first, last), f.deleted);
    if (by.size === 0) continue;
    byFile.set(f.path, by);
    for (const [sha, ranges] of by) for (const [a, z] of ranges) lines.set(sha, (lines.get(sha) ?? 0) + z - a + 1);
  }
  return { byFile, lines, leftOut: blames.size < targets.length ? leftOut(ctx.index, targets) : [] };
}
