/** HEAD's cached blame seen through the file on disk: the rows of on-disk lines a..b, uncommitted ones without a commit. */
import type { BlameHunk as BlameHunkRow } from "../../git/records.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { CachedBlame } from "../../store/blame-store.ts";
import type { QueryContext } from "../context.ts";
import { blameFile } from "./blame-file.ts";
import { blameProgress, rangeToWatch } from "./blame-partial.ts";
import { diskFile, runsIn, type DiskFile } from "./disk-file.ts";

/** A blame row in on-disk numbers; sha null for lines not committed. */
export type DiskRow = BlameHunkRow | { start: number; end: number; sha: null; origPath: string; origStart: number };

export interface DiskBlame {
  scope: Scope;
  view: DiskFile;
  /** HEAD's blame of view.headPath (null when no line is committed). */
  cached: CachedBlame | null;
  /** During a merge: the blame of the file at each merged commit of view.merges. */
  merged: CachedBlame[];
}

/** The file on disk and HEAD's blame of what it came from, when the question is about the disk (no `until`) and the file differs from HEAD's. */
export async function diskBlame(ctx: QueryContext, until: string | undefined, path: string, honourIgnoreRevs: boolean): Promise<DiskBlame | undefined> {
  if (until !== undefined) return undefined;
  const scope = await ctx.index.scope(undefined);
  const view = await diskFile(ctx, scope, path);
  if (!view) return undefined;
  // With a deadline, HEAD's version not blamed yet: how many of its lines git has attributed.
  const w = view.headEntry ? await rangeToWatch(ctx, scope, view.headEntry, { ignoreRevs: honourIgnoreRevs }) : undefined;
  const cached = view.headEntry ? await blameFile(ctx, scope, view.headEntry, honourIgnoreRevs, w && blameProgress(w.work, w.a, w.b)) : null;
  const merged: CachedBlame[] = [];
  // Through the index's scope of that commit: it indexes what the merged branch adds first, as blame's shortcuts need.
  for (const m of view.merges ?? []) merged.push(await blameFile(ctx, await ctx.index.scope(m.commit), m.entry, honourIgnoreRevs));
  return { scope, view, cached, merged };
}

/** The rows of on-disk lines a..b: HEAD's rows of each committed run, moved to where the run sits on disk. */
export function diskRows(ctx: QueryContext, d: DiskBlame, a: number, b: number): DiskRow[] {
  const out: DiskRow[] = [];
  for (const run of runsIn(d.view, a, b)) {
    const blame = run.from === undefined ? d.cached : d.merged[run.from];
    if (run.head === null || !blame) {
      out.push({ start: run.start, end: run.end, sha: null, origPath: "", origStart: 0 });
      continue;
    }
    const h0 = run.head;
    const h1 = run.head + (run.end - run.start);
    const shift = run.start - h0;
    for (const row of ctx.index.store.blame.hunks(blame.id, h0, h1)) {
      const from = Math.max(row.start, h0);
      const to = Math.min(row.end, h1);
      out.push({ start: from + shift, end: to + shift, sha: row.sha, origPath: row.origPath, origStart: row.origStart + (from - row.start) });
    }
  }
  return out;
}
