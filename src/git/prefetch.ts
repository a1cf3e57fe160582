/**
 * git started ahead of the code that will ask for the same output (an import's catch-up, started
 * while the file is checked): the first git call with the same arguments, folder and environment
 * reads the prefetched output instead of starting git again. For commands whose output the arguments
 * settle (commits and trees named by id), or with a test that what it read has not changed since (refs).
 */
import { filtersOff } from "./no-programs.ts";
import { hasEscapedBytes } from "./paths.ts";
import type { GitOptions } from "./spawn.ts";
import { dropSpool, startSpool, type Spool } from "./spool.ts";

/** A started git, and what must still hold when it is taken (else it is ended and git asked again). */
const waiting = new Map<string, { spool: Spool; still?: () => boolean }>();

const keyOf = (args: readonly string[], opts: GitOptions) => JSON.stringify([opts.cwd, opts.env ?? null, opts.timeoutMs ?? null, args]);

/**
 * Starts `git args` now for a later call with the same arguments and options (no input) to read.
 * `still`: for output that is not settled by the arguments (refs): taken only while it says true.
 */
export async function prefetch(given: readonly string[], opts: GitOptions, still?: () => boolean): Promise<void> {
  // A name that is not UTF-8 goes through xargs (run.ts): not prefetched.
  if (opts.input !== undefined || opts.fetching || given.some(hasEscapedBytes)) return;
  const args = await filtersOff(given, opts.cwd);
  const key = keyOf(args, opts);
  if (!waiting.has(key)) waiting.set(key, { spool: startSpool(args, opts), still });
}

/** The prefetched git for these arguments (args past filtersOff), taken: nobody else reads it. */
export function takePrefetched(args: readonly string[], opts: GitOptions): Spool | undefined {
  if (waiting.size === 0 || opts.input !== undefined || opts.fetching) return undefined;
  const key = keyOf(args, opts);
  const s = waiting.get(key);
  waiting.delete(key);
  if (s?.still && !s.still()) {
    dropSpool(s.spool);
    return undefined;
  }
  return s?.spool;
}

/** Ends every prefetched git nobody took (a check failed, or the work went another way); how many. */
export function dropPrefetched(): number {
  const n = waiting.size;
  for (const s of waiting.values()) dropSpool(s.spool);
  waiting.clear();
  return n;
}

/** How many prefetched gits wait to be taken. */
export function prefetchedWaiting(): number {
  return waiting.size;
}
