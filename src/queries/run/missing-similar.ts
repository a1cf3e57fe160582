/**
 * Commits like this one: the past commits most similar to the change as a whole (the Jaccard of their
 * files and the change's; the newer first among equals) vote for their other files, in proportion to
 * their similarity. A commit of most of the change's files says more than one that shares a file.
 */
import type { Evidence } from "./missing-rank.ts";

export interface Similar {
  /** Of the `k` most similar commits, how many it changed in. */
  count: number;
  k: number;
  /** Its share of their similarity (0–1). */
  share: number;
}

/** The `k` commits of `keys` most similar to the change, each voting for the files it has that the change lacks. */
export function similarVotes(e: Evidence, k: number, keys: Iterable<number>): Map<string, Similar> {
  const mine = new Set([...e.inputs, ...e.added]);
  const scored: { key: number; sim: number; age: number }[] = [];
  for (const key of new Set(keys)) {
    const c = e.commits.get(key)!;
    if (!c.files.some((f) => !e.change.has(f) && e.tree.has(f))) continue;
    const shared = c.files.reduce((n, f) => n + (mine.has(f) ? 1 : 0), 0);
    if (shared > 0) scored.push({ key, sim: shared / (mine.size + c.files.length - shared), age: c.age });
  }
  scored.sort((a, b) => b.sim - a.sim || a.age - b.age);
  const best = scored.slice(0, k);
  const total = best.reduce((s, x) => s + x.sim, 0);
  const out = new Map<string, Similar>();
  for (const { key, sim } of best)
    for (const f of e.commits.get(key)!.files) {
      if (e.change.has(f) || !e.tree.has(f)) continue;
      const v = out.get(f) ?? { count: 0, k: best.length, share: 0 };
      v.count++;
      v.share += sim / total;
      out.set(f, v);
    }
  return out;
}
