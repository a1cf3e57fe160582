/** Line churn (git log --numstat): in the background for all history, on demand for the commits a question needs. */
import { NUMSTAT_FORMAT, NumstatParser } from "../git/parse-log.ts";
import { gitSpool, gitStream } from "../git/run.ts";
import type { NumstatRecord } from "../git/records.ts";
import type { IndexContext } from "./context.ts";
import { isPartialClone } from "../git/repo.ts";
import { questionsAnswered } from "../git/priority.ts";

const NUMSTAT_ARGS = ["log", "--numstat", "-z", "-M", "--root", "--no-ext-diff", "--no-textconv", "--no-color", `--format=${NUMSTAT_FORMAT}`];
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
  let done = 0;
  try {
    await streamNumstat(ix, [...(max && !known ? ["-n", String(max)] : []), head, ...(known ? ["--not", from!] : []), "--"], undefined, (b) => {
      save(ix, b);
      done += b.length;
      ix.onProgress?.({ phase: "churn", done });
    });
  } catch (err) {
    // Where history stops at damage, churn stops there too: what came before it is kept, and it is not tried again.
    if (ix.store.meta("historyStops") === undefined) throw err;
  }
  ix.store.setMeta("churnHead", head);
  return true;
}

/** Fetches churn now for the given commits (those a question is about to show). */
export async function churnFor(ix: IndexContext, shas: string[]): Promise<void> {
  if (shas.length === 0) return;
  if (!isPartialClone(ix.repo)) return streamNumstat(ix, ["--no-walk=unsorted", "--stdin", "--"], shas.join("\n") + "\n", (b) => save(ix, b));
  // A partial clone may lack the blobs of some: one git per commit, and a commit git cannot diff keeps its churn unknown.
  for (const sha of shas) await streamNumstat(ix, ["--no-walk=unsorted", "--stdin", "--"], sha + "\n", (b) => save(ix, b)).catch(() => {});
}
