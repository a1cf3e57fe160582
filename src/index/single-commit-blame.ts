/**
 * The blame of a file one commit created and nothing touched since: every line is that
 * commit's, so git need not be asked. Most files of a repository are like that, and
 * skipping their git blame halves the background work. Taken only where its premise is
 * proven: no merge wrote the file itself, and git blame can pair it with no older file.
 */
import type { BlameResult } from "../git/records.ts";
import { isBackground } from "../git/priority.ts";
import { isShallow } from "../git/repo.ts";
import type { BlameTarget } from "./blame.ts";
import type { IndexContext } from "./context.ts";
import { lineCounts } from "./line-counts.ts";
import { mergeWrittenPaths } from "./merge-written.ts";

/** Whether the ignore-revs text names this commit (full or abbreviated, as git accepts). */
function ignored(ignoreText: string | undefined, sha: string): boolean {
  if (!ignoreText) return false;
  return ignoreText
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .some((l) => l.length >= 4 && sha.startsWith(l));
}

/** The blame git would give, when the file's history is one commit that added it; null otherwise. */
export async function singleCommitBlame(ix: IndexContext, t: BlameTarget, ignoreText: string | undefined): Promise<BlameResult | null> {
  // Only at the indexed head, whose whole history is known: not in a shallow clone (git marks
  // its edge) nor under LORE_MAX_COMMITS (the file may be older than the indexed history).
  if (!t.headKey || isShallow(ix.repo) || ix.store.meta("truncated") !== undefined || ix.store.meta("historyStops") !== undefined) return null;
  const { history } = ix.store;
  const pid = history.pathId(t.path);
  if (pid === undefined || history.changeCount("reach", pid) !== 1) return null;
  const sha = t.headKey.lastTouch;
  const change = history.changeIn(sha, t.path);
  const commit = history.commitBySha(sha);
  if (!change || change.status !== "A" || !commit || ignored(ignoreText, sha)) return null;
  // git blame pairs an added file with the most similar file its commit removed, looking at this
  // file alone; the index's rename detection pairs the whole commit at once (and a partial clone's
  // exact renames only), so they can disagree. A commit that removed nothing leaves nothing to pair.
  if (history.removesAny(change.commit_id)) return null;
  // A merge that wrote the file itself (a resolved conflict) owns lines the index cannot see.
  const written = await mergeWrittenPaths(ix, t.commit, isBackground());
  if (!written || written.has(t.path)) return null;
  const lines = (await lineCounts(ix, [t.headKey.blob])).get(t.headKey.blob);
  if (lines === undefined) return null;
  const facts = { author: commit.author, email: commit.email, time: commit.time, subject: commit.subject };
  return {
    hunks: lines ? [{ start: 1, end: lines, sha, origPath: t.path, origStart: 1 }] : [],
    // git blame marks a root commit as a boundary in its porcelain output.
    commits: { [sha]: commit.parents === "" ? { ...facts, boundary: true } : facts },
    lines: lines ?? 0,
    binary: lines === null,
  };
}
