/**
 * `lore index build`: every part of the index the daemon otherwise fills in the background — history and
 * tree, the message search, lore's commit-graph, the blame of every file at HEAD, line churn and the change
 * index of code search — built now, in this process, each phase said on stderr; INDEX_INCOMPLETE when one cannot finish.
 */
import { LoreError } from "../errors.ts";
import { isPartialClone, isShallow } from "../git/repo.ts";
import { blameMany, leftOut } from "../index/blame.ts";
import { updateChurn } from "../index/churn.ts";
import { updateCodeWords } from "../index/code-words.ts";
import { fillAllMergePaths } from "../index/merge-paths.ts";
import { lineCounts } from "../index/line-counts.ts";
import type { RepoIndex } from "../index/repo-index.ts";
import { refreshCommitGraph } from "../daemon/commit-graph.ts";
import type { PhaseLog } from "./phase-log.ts";

export interface Built {
  head: string;
  commits: number;
  files: number;
  blamed: number;
}

const count = (n: number, what: string) => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;

function incomplete(part: string, why: string): LoreError {
  return new LoreError("INDEX_INCOMPLETE", `The index is not complete: ${part} cannot be finished here (${why}).`);
}

/**
 * Builds what is missing of the index of `ix`'s repository at its HEAD; throws INDEX_INCOMPLETE when a part
 * cannot finish. `blame: false` (after an import): all but the commit-graph, the message search and the blame of the
 * files new commits changed, which the daemon's warm-up or the first question asking makes, as after any new commits.
 */
export async function buildIndex(ix: RepoIndex, log: PhaseLog, opts: { blame?: boolean } = {}): Promise<Built> {
  const all = opts.blame !== false;
  const { store } = ix;
  if (isPartialClone(ix.repo)) throw incomplete("line churn and the blame of every file", "a partial clone lacks the old file contents, and lore downloads nothing; build the index in a full clone");
  log.begin();
  const before = store.history.reachBounds().count;
  ix.onProgress = (p) => log.tick(`${p.phase}: ${p.done.toLocaleString("en-US")}${p.total ? ` of ${p.total.toLocaleString("en-US")}` : ""}`);
  const head = await ix.refresh();
  const commits = store.history.reachBounds().count;
  await log.done(`history at ${head.slice(0, 12)}: ${count(commits, "commit")}${commits > before && before > 0 ? ` (${count(commits - before, "new commit")})` : ""}, ${count(store.tree.count(), "file")}`);
  const stops = store.meta("historyStops");
  if (stops) throw incomplete("the history", stops);
  // An index a lore before historyWhole built on a full clone: as whole as a new one.
  if (!isShallow(ix.repo) && !store.meta("truncated") && store.meta("historyWhole") !== "1") store.setMeta("historyWhole", "1");

  // After an import (not all): the message search is made by the first search that needs it, or the daemon's pass.
  if (all) {
    log.begin();
    store.transaction(() => store.search.catchUpMessages());
    // A shallow clone takes none (git ignores commit-graphs there); any other failure only slows blame down.
    const graph = await refreshCommitGraph(ix).catch(() => false);
    await log.done(`message search${graph ? " and commit-graph" : ""}`);
  }
  const blamed = all ? await blameEvery(ix, log) : store.blame.blamedInTree();

  log.begin();
  await updateChurn(ix);
  await log.done(`line churn of ${count(commits, "commit")}`);
  log.begin();
  const merges = await fillAllMergePaths(ix);
  await log.done(`what ${count(merges, "merge")} changed against each parent`);
  log.begin();
  const filled = updateCodeWords(ix);
  await filled.catch(() => {});
  const missing = store.meta("codeUnreadable");
  if (missing) throw incomplete("the change index of code search", `git cannot read object ${missing}: a damaged clone`);
  await filled;
  await log.done("change index of code search");
  store.checkpoint();
  ix.onProgress = undefined;
  for (const [key, what] of [["treeHead", "the tree"], ["churnHead", "line churn"], ["codeHead", "the change index"]] as const)
    if (store.meta(key) !== head) throw incomplete(what, "HEAD moved while it was built; run lore index build again");
  return { head, commits, files: store.tree.count(), blamed };
}

/** The blame of every file at HEAD (those already blamed are found in the index); how many files are blamed. */
async function blameEvery(ix: RepoIndex, log: PhaseLog): Promise<number> {
  log.begin();
  // Loaded only to blame: they bring in the questions (~120 modules), which an import's catch-up does not need.
  const [{ blamePlan }, { BLAME_WORKERS }] = await Promise.all([import("../daemon/blame-plan.ts"), import("../queries/answer.ts")]);
  const targets = blamePlan(ix, true);
  await lineCounts(ix, targets.flatMap((t) => (t.headKey ? [t.headKey.blob] : [])));
  let done = 0;
  const blames = await blameMany(ix, targets, BLAME_WORKERS, () => log.tick(`blame: ${++done} of ${targets.length} files`));
  const failed = leftOut(ix, targets.filter((t) => !blames.has(t.path)));
  await log.done(`blame of every file: ${count(blames.size, "file")}`);
  if (failed.length) throw incomplete(`the blame of ${count(failed.length, "file")}`, `git cannot blame ${failed[0]}`);
  return blames.size;
}
