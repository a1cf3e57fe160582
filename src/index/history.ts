/** Indexes commits and the files they touched (git log --raw), newest first, in batches. */
import { LOG_FORMAT, RawLogParser } from "../git/parse-log.ts";
import { gitSpool, gitText, git } from "../git/run.ts";
import type { CommitRecord } from "../git/records.ts";
import type { IndexContext } from "./context.ts";

const BATCH = 1000;
/** Tests only: a pause after each batch, so that what questions do during a first index can be watched. */
const BATCH_PAUSE_MS = Number(process.env.LORE_TEST_BATCH_PAUSE_MS) || 0;

export const LOG_ARGS = ["log", "--raw", "-z", "-M", "--root", "--no-ext-diff", "--no-textconv", "--no-color", "--no-abbrev", `--format=${LOG_FORMAT}`];

/** Streams `git log` over `revs`, handing batches of commits to `onBatch`. */
export async function streamCommits(ix: IndexContext, revs: string[], onBatch: (batch: CommitRecord[]) => void): Promise<number> {
  const parser = new RawLogParser();
  let pending: CommitRecord[] = [];
  let total = 0;
  const flush = () => {
    if (pending.length === 0) return;
    onBatch(pending);
    total += pending.length;
    pending = [];
  };
  await gitSpool([...LOG_ARGS, ...revs, "--"], ix.git, (chunk) => {
    for (const c of parser.push(chunk)) pending.push(c);
    if (pending.length >= BATCH) {
      flush();
      if (BATCH_PAUSE_MS) return new Promise<void>((r) => setTimeout(r, BATCH_PAUSE_MS));
    }
    // Give questions in flight a turn of the event loop after every chunk, so that one asked during a first index moves on.
    return new Promise<void>((r) => setImmediate(r));
  });
  pending.push(...parser.end());
  flush();
  return total;
}

/** True when `fresh` (newest first) is a single-parent chain from `head` down onto `base`. */
function isLinearOnto(fresh: CommitRecord[], head: string, base: string): boolean {
  if (fresh.length === 0 || fresh[0]!.sha !== head) return false;
  for (let i = 0; i < fresh.length; i++) {
    const next = i + 1 < fresh.length ? fresh[i + 1]!.sha : base;
    if (fresh[i]!.parents.length !== 1 || fresh[i]!.parents[0] !== next) return false;
  }
  return true;
}

/** Indexes every commit reachable from `head` (at most maxCommits), with the reach order built as they stream. */
async function indexFull(ix: IndexContext, head: string): Promise<void> {
  const { store } = ix;
  store.transaction(() => {
    store.history.clearReach();
    store.setMeta("indexingHead", head);
  });
  let seq = 0;
  const max = ix.options.maxCommits;
  const n = await streamCommits(ix, [...(max ? ["-n", String(max)] : []), head], (batch) => {
    store.transaction(() => {
      for (const c of batch) store.history.appendReach(seq++, store.history.insertCommit(c));
    });
    ix.onProgress?.({ phase: "history", done: seq });
    ix.onHistoryBatch?.();
  });
  store.transaction(() => {
    store.setMeta("truncated", max && n >= max ? String(max) : undefined);
    store.setMeta("indexedHead", head);
    store.setMeta("indexingHead", undefined);
  });
}

/** Adds the commits reachable from `head` but not from the indexed head, then fixes the order of history. */
async function indexIncrement(ix: IndexContext, head: string, indexed: string): Promise<void> {
  const { store } = ix;
  const fresh: CommitRecord[] = [];
  await streamCommits(ix, [head, "--not", indexed], (batch) => {
    fresh.push(...batch);
  });
  const linear = isLinearOnto(fresh, head, indexed);
  // A linear fast-forward only adds commits in front: git log walks them first, then exactly the old order.
  const order = linear ? null : (await gitText(["rev-list", ...(ix.options.maxCommits ? ["-n", String(ix.options.maxCommits)] : []), head, "--"], ix.git)).split("\n").filter(Boolean);
  store.transaction(() => {
    for (const c of fresh) store.history.insertCommit(c);
    if (linear) store.history.prependReach(fresh.map((c) => c.sha));
    else store.history.replaceReach(order!);
    store.setMeta("indexedHead", head);
  });
}

/** Brings the history index to `head`; returns whether anything changed. */
export async function updateHistory(ix: IndexContext, head: string): Promise<boolean> {
  const indexed = ix.store.meta("indexedHead");
  if (indexed === head) return false;
  if (indexed && ix.store.history.commitId(indexed) !== undefined && (await commitExists(ix, indexed))) await indexIncrement(ix, head, indexed);
  else await indexFull(ix, head);
  return true;
}

/** The old head must still exist for `head --not old` to mean anything (gc may have pruned it). */
async function commitExists(ix: IndexContext, indexed: string): Promise<boolean> {
  try {
    await git(["cat-file", "-e", `${indexed}^{commit}`], ix.git);
    return true;
  } catch {
    return false;
  }
}

