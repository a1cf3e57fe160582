/**
 * What a blame found by its deadline: the range's hunks from its first line on, as far as git has
 * attributed them without a gap, each exactly as the whole answer will have it, with their commits;
 * and how many of the range's lines git has attributed so far (in any order), which intent says too.
 */
import type { Provenance } from "../provenance.ts";
import type { BlameEntry } from "../../git/parse-blame.ts";
import type { BlameCommit as GitCommit, TreeEntry } from "../../git/records.ts";
import { isBlamed, type BlameWatch } from "../../index/blame.ts";
import { lineCounts } from "../../index/line-counts.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { BlameHunk, BlameOutput } from "../blame.ts";
import type { QueryContext } from "../context.ts";
import type { PartialWork } from "../partial.ts";
import { blameTarget } from "./blame-file.ts";
import { iso, lineRange, shortSha } from "./common.ts";

/** With a deadline, a file not blamed yet: the lines asked (its line count first, for the range), to watch git attribute them; else undefined. */
export async function rangeToWatch(
  ctx: QueryContext,
  scope: Scope,
  entry: TreeEntry,
  asked: { startLine?: number; endLine?: number; ignoreRevs: boolean },
): Promise<{ work: PartialWork; lines: number; a: number; b: number } | undefined> {
  if (!ctx.partial || isBlamed(ctx.index, blameTarget(ctx, scope, entry, asked.ignoreRevs))) return undefined;
  const lines = (await lineCounts(ctx.index, [entry.blob])).get(entry.blob);
  if (typeof lines !== "number" || lines === 0) return undefined;
  const [a, b] = lineRange(asked.startLine, asked.endLine, lines, entry.path);
  return { work: ctx.partial, lines, a, b };
}

/** How many of lines a..b git has attributed so far, reported as the work's progress; `then` sees each group too. */
export function blameProgress(work: PartialWork, a: number, b: number, then?: (entry: BlameEntry, commit: GitCommit, lo: number) => void): BlameWatch {
  let covered = 0;
  return (entry, commit) => {
    const lo = Math.max(a, entry.start);
    const hi = Math.min(b, entry.start + entry.count - 1);
    if (lo > hi) return;
    covered += hi - lo + 1;
    work.report({ lines: covered, of: b - a + 1 });
    then?.(entry, commit, lo);
  };
}

export function blamePrefix(work: PartialWork, head: Omit<BlameOutput, "hunks">, a: number, b: number, marks: (sha: string) => Provenance = () => ({})): BlameWatch {
  work.begin(head, "hunks");
  // Each group as it falls in the range, by its first line there: the groups tile the file.
  const groups = new Map<number, { entry: BlameEntry; commit: GitCommit }>();
  let next = a;
  // The last hunk placed: sent once the line after it is known not to join it (or the range ends).
  let open: BlameHunk | undefined;
  let openCommit: GitCommit | undefined;
  let openSha = "";

  const send = () => {
    if (!open) return;
    const sha = open[2]!;
    if (!(sha in head.commits)) {
      const p = marks(openSha);
      head.commits[sha] = Object.keys(p).length ? [openCommit!.author, iso(openCommit!.time), openCommit!.subject, p] : [openCommit!.author, iso(openCommit!.time), openCommit!.subject];
      if (openCommit!.boundary) (head.boundary ??= []).push(sha);
    }
    work.add(open);
    open = undefined;
  };

  /** Lines lo..hi of the group, joined to the open hunk where the whole answer joins them (compactHunks). */
  const place = (e: BlameEntry, commit: GitCommit, lo: number, hi: number) => {
    const sha = shortSha(e.sha);
    const origStart = e.origStart + (lo - e.start);
    if (open && open[2] === sha && open[1] + 1 === lo) {
      const own = e.origPath === head.path;
      // Lines of the file itself join whatever their old numbers; lines from another file only as git's own hunks do.
      if (own && open.length === 3) return void (open[1] = hi);
      if (!own && open.length === 5 && open[3] === e.origPath && open[4] + (lo - open[0]) === origStart) return void (open[1] = hi);
    }
    send();
    open = e.origPath === head.path ? [lo, hi, sha] : [lo, hi, sha, e.origPath, origStart];
    openCommit = commit;
    openSha = e.sha;
  };

  return blameProgress(work, a, b, (entry, commit, lo) => {
    groups.set(lo, { entry, commit });
    for (let g = groups.get(next); g; g = groups.get(next)) {
      groups.delete(next);
      const end = Math.min(b, g.entry.start + g.entry.count - 1);
      place(g.entry, g.commit, next, end);
      next = end + 1;
    }
    if (next > b) send();
  });
}
