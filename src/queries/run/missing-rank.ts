/**
 * What a change may have missed, ranked from the change as a whole: the past commits that touched
 * its files, weighted by how much of the change each one shares (a commit of 3 of your files says
 * more than one of 1), how small and how recent it is, and how many of your files a candidate went
 * with; files named like a changed file (its test, its types) count as a partner. Pure: the reader
 * (review-missing.ts) gathers the evidence, the bench (test/bench/review-quality.ts) replays it.
 */
import { related, sharedPlaces, type Place, type Relation } from "./missing-names.ts";

export interface PastCommit {
  /** The files it changed (names as of then). */
  files: readonly string[];
  /** Its rank in the history before the change, newest 0. */
  age: number;
}

export interface Evidence {
  /** The changed files with history, by their old names. */
  inputs: readonly string[];
  /** Per input, the keys of its newest commits (into `commits`), newest first. */
  touches: readonly (readonly number[])[];
  commits: ReadonlyMap<number, PastCommit>;
  /** The files at the old side: only these can be missing. */
  tree: ReadonlySet<string>;
  /** Every name in the change, old and new: never missing. */
  change: ReadonlySet<string>;
  /** Changed files that had no history (added ones): their names still point at tests and types. */
  added: readonly string[];
  /** The keys of the repository's newest commits before the change: what most changes bring (a changelog). */
  recent: readonly number[];
}

export interface RankParams {
  /** Half-life of a commit's weight in an input's own commits (its rank among them). */
  halfLife: number;
  /** Half-life in the whole history's commits (age): last months outweigh years ago; 0 is none. */
  ageHalfLife: number;
  /** A commit's weight per file it has beyond the change's ones: 1/(others)^sizePow. */
  sizePow: number;
  /** A commit's weight grows with the changed files it shares: shared^sharePow. */
  sharePow: number;
  /** The score grows with the inputs a candidate went with: (inputs)^breadthPow. */
  breadthPow: number;
  /** Each input's votes are divided by their sum to this power (1: each input's sum to 1, a busy file does not drown a quiet one; 0: as counted). */
  normalize: number;
  /** What a name relation is worth, in the units of one input's whole vote. */
  names: Record<Relation, number>;
  /** What a file that changed in every recent commit is worth (in proportion to its share of them). */
  habit: number;
  /** What a file is worth whose place (folder and kind, name prefix, parallel folder) the change fills entirely. */
  place: number;
}

export const MISSING_PARAMS: RankParams = { halfLife: 50, ageHalfLife: 0, sizePow: 0.5, sharePow: 1, breadthPow: 1, normalize: 1, names: { test: 0.3, tested: 0.3, types: 0.3, named: 0.1 }, habit: 0.5, place: 0.5 };

export interface Ranked {
  path: string;
  score: number;
  /** Distinct commits it shared with the inputs, of `commits` that touched them. */
  count: number;
  commits: number;
  /** Indexes of the inputs it changed with, ascending. */
  with: number[];
  /** The strongest name relation, and the changed file it relates to. */
  name?: { relation: Relation; of: string };
  /** The place it shares with two or more changed files. */
  place?: Place;
  /** In how many of the repository's newest commits (of `recent`) it changed. */
  habit?: number;
}

interface Acc {
  score: number;
  seen: Set<number>;
  with: Set<number>;
  name?: { relation: Relation; of: string; worth: number };
  place?: Place;
  habit?: number;
}

/** The candidates best first (score, shared commits, path), at most `limit`. */
export function rankMissing(e: Evidence, p: RankParams, limit: number): Ranked[] {
  const acc = new Map<string, Acc>();
  const get = (path: string) => {
    let a = acc.get(path);
    if (!a) acc.set(path, (a = { score: 0, seen: new Set(), with: new Set() }));
    return a;
  };
  const inChange = (c: PastCommit) => c.files.reduce((n, f) => n + (e.change.has(f) ? 1 : 0), 0);
  const shared = new Map<number, number>();
  const all = new Set<number>();
  e.touches.forEach((keys, k) => {
    const votes: [PastCommit, number, number][] = [];
    let total = 0;
    keys.forEach((key, i) => {
      const c = e.commits.get(key)!;
      all.add(key);
      let s = shared.get(key);
      if (s === undefined) shared.set(key, (s = inChange(c)));
      const others = c.files.length - s;
      if (others <= 0) return;
      const w = 2 ** (-i / p.halfLife) * (p.ageHalfLife ? 2 ** (-c.age / p.ageHalfLife) : 1) * s ** p.sharePow / others ** p.sizePow;
      votes.push([c, key, w]);
      total += w;
    });
    const scale = p.normalize && total > 0 ? total ** -p.normalize : 1;
    for (const [c, key, w] of votes)
      for (const f of c.files) {
        if (e.change.has(f) || !e.tree.has(f)) continue;
        const a = get(f);
        a.score += w * scale;
        a.seen.add(key);
        a.with.add(k);
      }
  });
  if (p.breadthPow) for (const a of acc.values()) a.score *= a.with.size ** p.breadthPow;
  const unit = p.normalize === 1 ? 1 : maxScore(acc);
  for (const of of [...e.inputs, ...e.added])
    for (const [path, relation] of related(of, e.tree)) {
      if (e.change.has(path)) continue;
      const a = get(path);
      const worth = p.names[relation] * unit;
      a.score += worth;
      if (!a.name || a.name.worth < worth) a.name = { relation, of, worth };
    }
  if (p.habit && e.recent.length) {
    const seen = new Map<string, number>();
    for (const key of e.recent) for (const f of e.commits.get(key)!.files) seen.set(f, (seen.get(f) ?? 0) + 1);
    for (const [f, n] of seen) {
      if (e.change.has(f) || !e.tree.has(f)) continue;
      const a = get(f);
      a.score += (p.habit * unit * n) / e.recent.length;
      a.habit = n;
    }
  }
  if (p.place)
    for (const [f, s] of sharedPlaces(e.change, e.tree)) {
      if (e.change.has(f)) continue;
      const a = get(f);
      a.score += (p.place * unit * s.changed) / s.files;
      a.place = s;
    }
  return [...acc]
    .filter(([, a]) => a.score > 0)
    .sort(([x, a], [y, b]) => b.score - a.score || b.seen.size - a.seen.size || (x < y ? -1 : 1))
    .slice(0, limit)
    .map(([path, a]) => ({
      path,
      score: a.score,
      count: a.seen.size,
      commits: all.size,
      with: [...a.with].sort((x, y) => x - y),
      ...(a.name ? { name: { relation: a.name.relation, of: a.name.of } } : {}),
      ...(a.place ? { place: a.place } : {}),
      ...(a.habit ? { habit: a.habit } : {}),
    }));
}

function maxScore(acc: Map<string, Acc>): number {
  let m = 0;
  for (const a of acc.values()) m = Math.max(m, a.score);
  return m || 1;
}
