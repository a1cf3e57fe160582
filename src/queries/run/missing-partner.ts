/** A changed file's partner: the file that changed in nearly every one of its recent commits (its test, its mirror in a build folder, its types), learned from the repository's own history. */
import type { Evidence } from "./missing-rank.ts";

export interface Partner {
  /** The input it partners. */
  of: number;
  /** Of the input's newest `window` commits, how many it changed in. */
  count: number;
  total: number;
}

/** For each file: the input whose newest `window` commits it shared the largest share of (at least `min` of them). */
export function partnersOf(e: Evidence, window: number, min: number): Map<string, Partner> {
  const out = new Map<string, Partner>();
  e.touches.forEach((keys, of) => {
    const total = Math.min(window, keys.length);
    if (total < min) return;
    const counts = new Map<string, number>();
    for (let i = 0; i < total; i++) for (const f of e.commits.get(keys[i]!)!.files) counts.set(f, (counts.get(f) ?? 0) + 1);
    for (const [f, count] of counts) {
      if (count < min || e.change.has(f) || !e.tree.has(f)) continue;
      const best = out.get(f);
      if (!best || count / total > best.count / best.total) out.set(f, { of, count, total });
    }
  });
  return out;
}
