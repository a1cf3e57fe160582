/** Indexes commits and the files they touched (git log --raw), newest first, in batches. */
import { LOG_FORMAT, RawLogParser } from "../git/parse-log.ts";
import { gitSpool, gitText, git } from "../git/run.ts";
import type { CommitRecord } from "../git/records.ts";
import type { IndexContext } from "./context.ts";
import { isPartialClone, isShallow } from "../git/repo.ts";
import { LoreError } from "../errors.ts";
import { orderBelowBoundary, overWhole } from "./shallow-order.ts";
import { markOwn } from "./commit-marks.ts";

function logToStderr(message: string): void {
  process.stderr.write(`lore: ${message}\n`);
}

const BATCH = 1000;
/** Tests only: a pause after each batch, so that what questions do during a first index can be watched. */
const BATCH_PAUSE_MS = Number(process.env.LORE_TEST_BATCH_PAUSE_MS) || 0;

export const LOG_ARGS = ["log", "--raw", "-z", "-M", "--root", "--no-ext-diff", "--no-textconv", "--no-color", "--no-abbrev", `--format=${LOG_FORMAT}`];
/** In a partial clone: exact renames only (finding an edited rename reads both blobs, which the clone may not have). */
const PARTIAL_LOG_ARGS = LOG_ARGS.map((a) => (a === "-M" ? "-M100%" : a));

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
  try {
    await gitSpool([...(isPartialClone(ix.repo) ? PARTIAL_LOG_ARGS : LOG_ARGS), ...revs, "--"], ix.git, (chunk) => {
      for (const c of parser.push(chunk)) pending.push(c);
      if (pending.length >= BATCH) {
        flush();
        if (BATCH_PAUSE_MS) return new Promise<void>((r) => setTimeout(r, BATCH_PAUSE_MS));
      }
      // Give questions in flight a turn of the event loop after every chunk, so that one asked during a first index moves on.
      return new Promise<void>((r) => setImmediate(r));
    });
  } catch (err) {
    // git stopped (a damaged repository): it prints a commit with its whole diff or not at all, so what came is whole.
    if (err instanceof LoreError && (err.code === "GIT_FAILED" || err.code === "BAD_REVISION")) {
      try {
        pending.push(...parser.end());
      } catch {}
      flush();
    }
    throw err;
  }
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
  let last: string | undefined;
  const max = ix.options.maxCommits;
  let n = 0;
  let stops: string | undefined;
  try {
    n = await streamCommits(ix, [...(max ? ["-n", String(max)] : []), head], (batch) => {
      store.transaction(() => {
        for (const c of batch) {
          const id = store.history.insertCommit(c);
          store.history.appendReach(seq++, id);
          markOwn(store, id, c);
        }
      });
      last = batch[batch.length - 1]!.sha;
      ix.onProgress?.({ phase: "history", done: seq });
      ix.onHistoryBatch?.();
    });
  } catch (err) {
    // A damaged repository (an object missing or unreadable): keep what came before the damage,
    // say once where history stops and why, and do not try again until HEAD moves.
    if (!(err instanceof LoreError) || (err.code !== "GIT_FAILED" && err.code !== "BAD_REVISION")) throw err;
    stops = `history stops after ${seq} commits${last ? ` (at ${last.slice(0, 12)})` : ""}: ${err.message}`;
    (ix.log ?? logToStderr)(`${ix.repo.root}: ${stops}`);
  }
  store.transaction(() => {
    store.setMeta("historyStops", stops);
    store.setMeta("truncated", max && n >= max ? String(max) : undefined);
    store.setMeta("historyWhole", !stops && !(max && n >= max) && !isShallow(ix.repo) ? "1" : undefined);
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
  // A linear fast-forward only adds commits in front: git log walks them first, then exactly the old order.
  const linear = isLinearOnto(fresh, head, indexed);
  // A shallow clone over a whole imported history: git cannot give the order below the boundary (shallow-order.ts can).
  const order = linear || overWhole(ix) ? null : await gitText(["rev-list", ...(ix.options.maxCommits ? ["-n", String(ix.options.maxCommits)] : []), head, "--"], ix.git);
  store.transaction(() => {
    for (const c of fresh) store.history.insertCommit(c);
    if (linear) store.history.prependReach(fresh.map((c) => c.sha));
    else store.history.replaceReach(order?.split("\n").filter(Boolean) ?? orderBelowBoundary(ix, head)!);
    store.setMeta("indexedHead", head);
  });
}

/**
 * A shallow clone whose boundary is above the whole history's indexed head (which the clone lacks):
 * the clone's commits the index lacks join it, in the order git gives a whole clone as far as the
 * walk goes on (it stops at a boundary commit the index lacks: the history between is in neither).
 */
async function indexOnto(ix: IndexContext, head: string): Promise<void> {
  const { store } = ix;
  const fresh: CommitRecord[] = [];
  await streamCommits(ix, [head], (batch) => {
    for (const c of batch) if (store.history.commitId(c.sha) === undefined) fresh.push(c);
  });
  store.transaction(() => {
    for (const c of fresh) store.history.insertCommit(c);
    store.history.replaceReach(orderBelowBoundary(ix, head)!);
    store.setMeta("indexedHead", head);
  });
}

/** Brings the history index to `head`; returns whether anything changed. */
export async function updateHistory(ix: IndexContext, head: string): Promise<boolean> {
  const indexed = ix.store.meta("indexedHead");
  if (indexed === head) return false;
  const known = indexed !== undefined && ix.store.history.commitId(indexed) !== undefined;
  if (known && (await commitExists(ix, indexed))) await indexIncrement(ix, head, indexed);
  else if (known && overWhole(ix)) await indexOnto(ix, head);
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

