/** Line churn (git log --numstat): in the background for all history, on demand for the commits a question needs. */
import { NUMSTAT_FORMAT, NumstatParser } from "../git/parse-log.ts";
import { LoreError } from "../errors.ts";
import { fromLatin1 } from "../git/paths.ts";
import { git, gitSpool, gitStream } from "../git/run.ts";
import type { NumstatRecord } from "../git/records.ts";
import type { IndexContext } from "./context.ts";
import { isPartialClone } from "../git/repo.ts";
import { questionsAnswered } from "../git/priority.ts";
import { sinceRevs } from "./walk-since.ts";

export const NUMSTAT_ARGS = ["log", "--numstat", "-z", "-M", "--root", "--no-ext-diff", "--no-textconv", "--no-color", `--format=${NUMSTAT_FORMAT}`];
const BATCH = 500;

async function streamNumstat(ix: IndexContext, revs: string[], input: string | undefined, onBatch: (b: NumstatRecord[]) => void): Promise<void> {
  const parser = new NumstatParser();
  let pending: NumstatRecord[] = [];
  const run = input === undefined ? gitSpool : gitStream;
  await run([...NUMSTAT_ARGS, ...revs], { ...ix.git, input }, (chunk) => {
    pending.push(...parser.push(chunk));
    if (pending.length >= BATCH) {
      onBatch(pending);
      pending = [];
      // In the background pass: the next batch waits while questions are answered.
      return questionsAnswered().then(() => new Promise<void>((r) => setImmediate(r)));
    }
  });
  pending.push(...parser.end());
  if (pending.length) onBatch(pending);
}

function save(ix: IndexContext, batch: NumstatRecord[]): void {
  ix.store.transaction(() => {
    for (const r of batch) ix.store.history.applyNumstat(r);
  });
}

/** Fills churn for every commit reachable from the indexed head that lacks it, newest first. */
export async function updateChurn(ix: IndexContext): Promise<boolean> {
  const head = ix.store.meta("indexedHead");
  if (!head || ix.store.meta("churnHead") === head) return false;
  const from = ix.store.meta("churnHead");
  const known = from !== undefined && ix.store.history.commitId(from) !== undefined;
  const max = ix.options.maxCommits;
  const epoch = ix.store.epoch;
  let done = 0;
  try {
    const revs = known ? await sinceRevs(ix, head, from!) : [head];
    await streamNumstat(ix, [...(max && !known ? ["-n", String(max)] : []), ...revs, "--"], undefined, (b) => {
      save(ix, b);
      done += b.length;
      ix.onProgress?.({ phase: "churn", done });
    });
  } catch (err) {
    // Where history stops at damage, churn stops there too: what came before it is kept, and it is not tried again.
    if (ix.store.meta("historyStops") === undefined) {
      if (!isUnreadable(err)) throw err;
      // A file git cannot read (a missing blob): the rest of the commits, each around it.
      await readableChurn(ix, ix.store.history.lackingChurn());
    }
  }
  // The index was replaced meanwhile (an import): its own mark stands, not this pass's.
  if (ix.store.epoch === epoch) ix.store.setMeta("churnHead", head);
  return true;
}

/** Fetches churn now for the given commits (those a question is about to show). */
export async function churnFor(ix: IndexContext, shas: string[]): Promise<void> {
  if (shas.length === 0) return;
  if (!isPartialClone(ix.repo)) return readableChurn(ix, shas);
  // A partial clone may lack the blobs of some: one git per commit, and a commit git cannot diff keeps its churn unknown.
  for (const sha of shas) await streamNumstat(ix, ["--no-walk=unsorted", "--stdin", "--"], sha + "\n", (b) => save(ix, b)).catch(() => {});
}

/** Set once the churn pass met a file whose content git cannot read. */
export const UNREADABLE_CONTENT = "unreadableContent" as const;

/** git stopped at a file's content it cannot read (a damaged clone: a missing or corrupt object). */
function isUnreadable(err: unknown): err is LoreError {
  return err instanceof LoreError && err.code === "GIT_FAILED";
}

/**
 * Churn of these commits with one git; where git cannot read a file of some commit, the commits
 * left are halved until that one is alone, whose readable files are counted: one unreadable file
 * costs a few git runs, never the line counts of all history.
 */
async function readableChurn(ix: IndexContext, shas: string[]): Promise<void> {
  if (shas.length === 0) return;
  try {
    return await streamNumstat(ix, ["--no-walk=unsorted", "--stdin", "--"], shas.join("\n") + "\n", (b) => save(ix, b));
  } catch (err) {
    if (!isUnreadable(err)) throw err;
    const left = shas.filter((s) => ix.store.history.lacksChurn(s));
    if (left.length === 1) return churnAround(ix, left[0]!, err);
    const mid = left.length >> 1;
    await readableChurn(ix, left.slice(0, mid));
    await readableChurn(ix, left.slice(mid));
  }
}

/** One commit's churn without the files whose content git cannot read (their counts stay unknown, as a binary file's). */
async function churnAround(ix: IndexContext, sha: string, first: LoreError): Promise<void> {
  // Answers then tell a file git cannot read from a binary one (both have unknown counts); never on a sound clone.
  if (ix.store.meta(UNREADABLE_CONTENT) === undefined) ix.store.setMeta(UNREADABLE_CONTENT, "1");
  const raw = (await git(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--root", "--no-abbrev", sha], ix.git)).toString("latin1").split("\0");
  // ":old new oldBlob newBlob status", then the path.
  const files: { path: string; blobs: string }[] = [];
  for (let i = 0; i + 1 < raw.length; i++) if (raw[i]!.startsWith(":")) files.push({ path: fromLatin1(raw[++i]!), blobs: raw[i - 1]! });
  let err: LoreError = first;
  for (let tries = 0; tries < 8; tries++) {
    const bad = /([0-9a-f]{40,64})/.exec(err.message)?.[1];
    const keep = bad ? files.filter((f) => !f.blobs.includes(bad)) : [];
    if (keep.length === files.length || keep.length === 0) return;
    files.splice(0, files.length, ...keep);
    try {
      return await streamNumstat(ix, ["--no-walk", sha, "--", ...keep.map((f) => f.path)], undefined, (b) => save(ix, b));
    } catch (e) {
      if (!isUnreadable(e)) throw e;
      err = e;
    }
  }
}
