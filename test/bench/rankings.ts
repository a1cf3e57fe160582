/** Ways to rank co-change candidates from the same window, and the scores of a ranking against the files a commit really changed. */

/** What the window says about one candidate file B for a query file A. */
export interface Candidate {
  path: string;
  /** Commits touching both A and B. */
  count: number;
  /** Commits touching B. */
  touching: number;
  /** Σ over shared commits of 1/ln(files in the commit). */
  invLog: number;
  /** Σ over shared commits of 1/(files in the commit − 1). */
  invFiles: number;
  /** Σ over shared commits of 2^(−age/halfLife), age = commits between it and the window's newest. */
  recency: number;
  /** Σ of recency/ln(files). */
  recencyInvLog: number;
}

export interface Ranking {
  name: string;
  score: (c: Candidate, commitsA: number) => number[];
}

const jaccard = (c: Candidate, a: number) => c.count / (a + c.touching - c.count);

/** Sort keys, most significant first; ties end on the path so every ranking is deterministic. */
export const RANKINGS: Ranking[] = [
  { name: "lore default: count, then jaccard", score: (c, a) => [c.count, jaccard(c, a)] },
  { name: "raw count (Go original)", score: (c) => [c.count] },
  { name: "confidence (= raw count per query)", score: (c, a) => [c.count / a] },
  { name: "jaccard, then count", score: (c, a) => [jaccard(c, a), c.count] },
  { name: "count, then the file's own changes (popular first)", score: (c) => [c.count, c.touching] },
  { name: "count, then Σ 1/ln(files), then own changes", score: (c) => [c.count, c.invLog, c.touching] },
  { name: "Σ 1/ln(files in commit)", score: (c, a) => [c.invLog, c.count, jaccard(c, a)] },
  { name: "Σ 1/ln(files), then own changes", score: (c) => [c.invLog, c.touching] },
  { name: "Σ 1/(files in commit − 1)", score: (c, a) => [c.invFiles, c.count, jaccard(c, a)] },
  { name: "recency-weighted count (half-life 100 commits)", score: (c, a) => [c.recency, c.count, jaccard(c, a)] },
  { name: "recency × 1/ln(files)", score: (c, a) => [c.recencyInvLog, c.count, jaccard(c, a)] },
];

export function rank(candidates: Candidate[], commitsA: number, r: Ranking): string[] {
  const keyed = candidates.map((c) => ({ path: c.path, key: r.score(c, commitsA) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < x.key.length; i++) if (x.key[i] !== y.key[i]) return y.key[i]! - x.key[i]!;
    return x.path < y.path ? -1 : x.path > y.path ? 1 : 0;
  });
  return keyed.map((k) => k.path);
}

export interface Scores {
  hit1: number;
  hit3: number;
  hit5: number;
  hit10: number;
  recall10: number;
  mrr10: number;
}

export const ZERO: Scores = { hit1: 0, hit3: 0, hit5: 0, hit10: 0, recall10: 0, mrr10: 0 };

/** One query's scores: `ranked` (best first, only the first 10 count) against the true `targets`. */
export function score(ranked: string[], targets: Set<string>): Scores {
  const top = ranked.slice(0, 10);
  const first = top.findIndex((p) => targets.has(p));
  const hit = (k: number) => (first >= 0 && first < k ? 1 : 0);
  return {
    hit1: hit(1),
    hit3: hit(3),
    hit5: hit(5),
    hit10: hit(10),
    recall10: top.filter((p) => targets.has(p)).length / targets.size,
    mrr10: first >= 0 ? 1 / (first + 1) : 0,
  };
}

export function add(a: Scores, b: Scores): Scores {
  return { hit1: a.hit1 + b.hit1, hit3: a.hit3 + b.hit3, hit5: a.hit5 + b.hit5, hit10: a.hit10 + b.hit10, recall10: a.recall10 + b.recall10, mrr10: a.mrr10 + b.mrr10 };
}

export function mean(s: Scores, n: number): Scores {
  const d = Math.max(1, n);
  return { hit1: s.hit1 / d, hit3: s.hit3 / d, hit5: s.hit5 / d, hit10: s.hit10 / d, recall10: s.recall10 / d, mrr10: s.mrr10 / d };
}
