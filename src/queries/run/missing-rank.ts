/**
 * What a change may have missed, ranked from the change as a whole: the past commits that touched
 * its files, weighted by how much of the change each one shares (a commit of 3 of your files says
 * more than one of 1), how small and how recent it is, and how many of your files a candidate went
 * with, and the few past commits most like the whole change; beside them the test or types beside a
 * changed file, a place the change mostly fills, a file the diff's words name, what the repository's
 * recent commits usually bring, a changed file's partner (in nearly all its commits), the
 * counterpart a rule of the change's own pairs names (src/∗ → dist/∗, ∗.ts → ∗.test.ts), a file the
 * change's new lines import, and one that still has a line the change removes. Pure: the reader
 * (review-missing.ts) gathers the evidence, the bench (test/bench/review-quality.ts) replays it.
 */
import { related, sharedPlaces, type Place, type Relation } from "./missing-names.ts";
import { analogies, type Analogy } from "./missing-analogy.ts";
import { importedBy } from "./missing-imports.ts";
import { partnersOf, type Partner } from "./missing-partner.ts";
import type { Remain } from "./missing-remains.ts";
import { namedByWords } from "./missing-words.ts";
import { similarVotes, type Similar } from "./missing-similar.ts";

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
  /** The identifiers the change's patches speak of (diff-words.ts). */
  words: ReadonlySet<string>;
  /** Per changed file (its new name), the relative modules its added lines import (diff-imports.ts). */
  imports: ReadonlyMap<string, readonly string[]>;
  /** Files outside the change that still have a line the change removes (missing-remains.ts; the reader's git grep). */
  remains: ReadonlyMap<string, Remain>;
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
  /** The co-change votes are divided by (changed files with history)^perInput: 1 averages them, so a sweeping change's votes weigh as much as a small one's beside names and places. */
  perInput: number;
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
  /** What a file is worth whose whole name the change's words speak of. */
  words: number;
  /** What a file is worth that changed in every one of a changed file's newest `partnerWindow` commits (in proportion to its share, to the power partnerPow). */
  partner: number;
  partnerWindow: number;
  partnerPow: number;
  /** Commits it shared at least, to be a partner. */
  partnerMin: number;
  /** What a file is worth that a rule of the change's own pairs (src/∗ → deno_dist/∗, ∗.ts → ∗.test.ts) makes the counterpart of a changed file, in proportion to the share of the rule's files the change pairs. */
  analogy: number;
  /** The change's pairs a rule needs at least. */
  analogyMin: number;
  analogyPow: number;
  /** What a file is worth that a changed file's added lines import. */
  imports: number;
  /** What a file is worth that still has a line the change removes, in proportion to the share of the line's files the change took it out of, to the power remainsPow. */
  remains: number;
  remainsPow: number;
  /** What a file is worth that the `similarK` past commits most like the change (the Jaccard of their files) changed, in proportion to its share of their similarity. */
  similar: number;
  similarK: number;
}

/**
 * Chosen on the older halves of express's and hono's held-out commits together (test/bench/missing-tune.ts);
 * the newer halves only report (test/bench/review-quality.ts). perInput (0.5 → 0.75) and remains
 * (4 → 8) last moved as `missing-tune.ts --search --older --exclude deno_dist --min-gain 0.003`
 * proposed (hono's deno_dist era, which its newer half does not have, had held them where the
 * mirror's partners win); its imports 2 was left at 0.25: two questions gained, 0.005 lost on that era.
 * similar (1, the 3 most like) gained on four of the five sets and lost on none; 0.5, 1.5 and 4 commits did not do better.
 */
export const MISSING_PARAMS: RankParams = {
  halfLife: 10,
  ageHalfLife: 0,
  perInput: 0.75,
  sizePow: 1,
  sharePow: 1,
  breadthPow: 1,
  normalize: 1,
  names: { test: 0.3, tested: 0.3, types: 0.3, named: 0.1 },
  habit: 2,
  place: 4,
  words: 0.5,
  partner: 16,
  partnerWindow: 20,
  partnerPow: 8,
  partnerMin: 2,
  analogy: 16,
  analogyMin: 1,
  analogyPow: 2,
  imports: 0.25,
  remains: 8,
  remainsPow: 2,
  similar: 1,
  similarK: 3,
};

/** The kinds of evidence, each a part of a candidate's score. */
export type Kind = "cochange" | "name" | "place" | "habit" | "words" | "partner" | "analogy" | "imports" | "remains" | "similar";

export interface Ranked {
  path: string;
  score: number;
  /** Each kind of evidence's part of the score. */
  parts: Partial<Record<Kind, number>>;
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
  /** The word of its name the change's patches speak of. */
  word?: string;
  /** The changed file in whose newest commits it changed the most. */
  partner?: Partner;
  /** The rule of the change's pairs that makes it a changed file's counterpart. */
  analogy?: Analogy;
  /** The changed file whose added lines import it. */
  importedBy?: string;
  /** The line the change removes that it still has. */
  remain?: Remain;
  /** The past commits most like the change it changed in. */
  similar?: Similar;
}

type Acc = Omit<Ranked, "path" | "score" | "count" | "commits" | "with"> & { seen: Set<number>; with: Set<number> };

/** The candidates best first (score, shared commits, path), at most `limit`. */
export function rankMissing(e: Evidence, p: RankParams, limit: number): Ranked[] {
  const acc = new Map<string, Acc>();
  const get = (path: string) => {
    let a = acc.get(path);
    if (!a) acc.set(path, (a = { parts: {}, seen: new Set(), with: new Set() }));
    return a;
  };
  const add = (a: Acc, kind: Kind, worth: number) => (a.parts[kind] = (a.parts[kind] ?? 0) + worth);
  const commits = cochange(e, p, get);
  const unit = p.normalize === 1 ? 1 : maxScore(acc);
  for (const of of [...e.inputs, ...e.added])
    for (const [path, relation] of related(of, e.tree)) {
      if (e.change.has(path)) continue;
      const a = get(path);
      const worth = p.names[relation] * unit;
      if ((a.parts.name ?? 0) < worth) [a.parts.name, a.name] = [worth, { relation, of }];
    }
  if (p.habit && e.recent.length) {
    const seen = new Map<string, number>();
    for (const key of e.recent) for (const f of e.commits.get(key)!.files) seen.set(f, (seen.get(f) ?? 0) + 1);
    for (const [f, n] of seen) {
      if (e.change.has(f) || !e.tree.has(f)) continue;
      const a = get(f);
      add(a, "habit", (p.habit * unit * n) / e.recent.length);
      a.habit = n;
    }
  }
  if (p.place)
    for (const [f, s] of sharedPlaces(e.change, e.tree)) {
      if (e.change.has(f)) continue;
      const a = get(f);
      add(a, "place", (p.place * unit * s.changed) / s.files);
      a.place = s;
    }
  if (p.words && e.words.size)
    for (const [f, m] of namedByWords(e.words, e.tree)) {
      if (e.change.has(f)) continue;
      const a = get(f);
      add(a, "words", p.words * unit * m.share);
      a.word = m.word;
    }
  if (p.partner)
    for (const [f, s] of partnersOf(e, p.partnerWindow, p.partnerMin)) {
      const a = get(f);
      add(a, "partner", p.partner * unit * (s.count / s.total) ** p.partnerPow);
      a.partner = s;
    }
  if (p.analogy)
    for (const [f, s] of analogies(e.change, e.tree, p.analogyMin)) {
      const a = get(f);
      add(a, "analogy", p.analogy * unit * (s.paired / s.applies) ** p.analogyPow);
      a.analogy = s;
    }
  if (p.imports && e.imports.size)
    for (const [f, by] of importedBy(e.imports, e.tree, e.change)) {
      const a = get(f);
      add(a, "imports", p.imports * unit);
      a.importedBy = by;
    }
  if (p.remains)
    for (const [f, r] of e.remains) {
      const a = get(f);
      add(a, "remains", p.remains * unit * (r.removed / (r.removed + r.left)) ** p.remainsPow);
      a.remain = r;
    }
  if (p.similar)
    for (const [f, s] of similarVotes(e, p.similarK, [...e.touches.flat(), ...e.recent])) {
      const a = get(f);
      add(a, "similar", p.similar * unit * s.share);
      a.similar = s;
    }
  const total = (a: Acc) => Object.values(a.parts).reduce((s, x) => s + x, 0);
  return [...acc]
    .map(([path, a]) => ({ path, a, score: total(a) }))
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || y.a.seen.size - x.a.seen.size || (x.path < y.path ? -1 : 1))
    .slice(0, limit)
    .map(({ path, a, score }) => {
      const { seen, with: w, ...rest } = a;
      return { path, score, count: seen.size, commits, with: [...w].sort((x, y) => x - y), ...rest };
    });
}

/**
 * Each input's newest commits vote for the other files in them: a commit weighs more the newer it
 * is among the input's, the more changed files it shares, the fewer others it has. Returns how
 * many distinct commits voted.
 */
function cochange(e: Evidence, p: RankParams, get: (path: string) => Acc): number {
  const shared = new Map<number, number>();
  const all = new Set<number>();
  const votes = new Map<Acc, number>();
  e.touches.forEach((keys, k) => {
    const mine: [PastCommit, number, number][] = [];
    let total = 0;
    keys.forEach((key, i) => {
      const c = e.commits.get(key)!;
      all.add(key);
      let s = shared.get(key);
      if (s === undefined) shared.set(key, (s = c.files.reduce((n, f) => n + (e.change.has(f) ? 1 : 0), 0)));
      const others = c.files.length - s;
      if (others <= 0) return;
      const w = (2 ** (-i / p.halfLife) * (p.ageHalfLife ? 2 ** (-c.age / p.ageHalfLife) : 1) * s ** p.sharePow) / others ** p.sizePow;
      mine.push([c, key, w]);
      total += w;
    });
    const scale = p.normalize && total > 0 ? total ** -p.normalize : 1;
    for (const [c, key, w] of mine)
      for (const f of c.files) {
        if (e.change.has(f) || !e.tree.has(f)) continue;
        const a = get(f);
        votes.set(a, (votes.get(a) ?? 0) + w * scale);
        a.seen.add(key);
        a.with.add(k);
      }
  });
  const per = e.inputs.length ** -p.perInput;
  for (const [a, v] of votes) a.parts.cochange = v * per * a.with.size ** p.breadthPow;
  return all.size;
}

function maxScore(acc: Map<string, Acc>): number {
  let m = 0;
  for (const a of acc.values()) m = Math.max(m, a.parts.cochange ?? 0);
  return m || 1;
}
