/**
 * A merge in progress (MERGE_HEAD): git blame of the work tree gives the lines HEAD does not have to
 * the merged commits, parent by parent, when their version has them; so does lore.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FULL_SHA } from "../../git/head-file.ts";
import { lsTree } from "../../index/tree.ts";
import type { QueryContext } from "../context.ts";
import { diffWith, runsOf } from "./disk-diff.ts";
import type { DiskFile, DiskRun } from "./disk-file.ts";
import { blobId, isLinkMode } from "./disk-read.ts";

/** The commits being merged, as git blame reads them (MERGE_HEAD, one a line); none outside a merge. */
export function mergeHeads(ctx: QueryContext): string[] {
  try {
    return readFileSync(join(ctx.index.repo.gitDir, "MERGE_HEAD"), "utf8").split("\n").map((l) => l.trim()).filter((l) => FULL_SHA.test(l));
  } catch {
    return [];
  }
}

/** The view (of a file on disk, a symlink when `link`) with its uncommitted lines given to the merged commits that have them, in git's order of parents. */
export async function withMerges(ctx: QueryContext, path: string, content: Buffer, link: boolean, view: DiskFile): Promise<DiskFile> {
  const heads = mergeHeads(ctx);
  if (heads.length === 0 || !view.runs.some((r) => r.head === null)) return view;
  const merges: NonNullable<DiskFile["merges"]> = [];
  let runs = view.runs;
  for (const commit of heads) {
    const entry = (await lsTree(ctx.index, commit, [path])).find((e) => e.path === path && e.type === "blob");
    // A symlink there and a file here (or the reverse): a type change, that parent gives no line.
    if (!entry || isLinkMode(entry.mode) !== link) continue;
    const from = merges.length;
    merges.push({ commit, entry });
    // The file as that parent has it: git passes it the whole blame.
    if (blobId(content, entry.blob.length === 64) === entry.blob) {
      runs = view.lines ? [{ start: 1, end: view.lines, head: 1, from }] : [];
      break;
    }
    runs = overlay(runs, runsOf(view.lines, await diffWith(ctx, commit, path, entry, content)), from);
    if (!runs.some((r) => r.head === null)) break;
  }
  return merges.length ? { ...view, runs, merges } : view;
}

/** The runs with each uncommitted line that `theirs` has committed given to parent `from`. */
function overlay(runs: DiskRun[], theirs: DiskRun[], from: number): DiskRun[] {
  const out: DiskRun[] = [];
  const committed = theirs.filter((t) => t.head !== null);
  let j = 0;
  for (const r of runs) {
    if (r.head !== null) {
      out.push(r);
      continue;
    }
    let at = r.start;
    while (j < committed.length && committed[j]!.end < r.start) j++;
    for (let k = j; k < committed.length && committed[k]!.start <= r.end; k++) {
      const t = committed[k]!;
      const start = Math.max(t.start, r.start);
      const end = Math.min(t.end, r.end);
      if (start > at) out.push({ start: at, end: start - 1, head: null });
      out.push({ start, end, head: t.head! + (start - t.start), from });
      at = end + 1;
    }
    if (at <= r.end) out.push({ start: at, end: r.end, head: null });
  }
  return out;
}
