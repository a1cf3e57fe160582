/**
 * review's `missing` on held-out history: for each of the newest 2N non-merge commits of 3–30
 * files, every file that existed before it is held out in turn, the rest of the commit is the
 * change, and the question is whether the held-out file is in the top 5 (hit@5); recall@5 splits
 * each commit in two halves instead and asks how many of the second the first's top 5 finds.
 * Every answer is as of the commit's parent (the index's scope of the parent: only its
 * ancestors), so nothing after the commit is read. The older N commits of each repository tune
 * (the ranking's parameters, on both repositories' older halves together: missing-tune.ts); the
 * newer N are held out and only report.
 */
import { indexFor } from "../../src/index/indexes.ts";
import type { ChangedFile } from "../../src/git/parse-diff-hunks.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { PER_FILE } from "../../src/queries/cochange.ts";
import { run as cochange } from "../../src/queries/run/cochange.ts";
import { missingOf } from "../../src/queries/run/review-missing.ts";
import { MISSING_PARAMS, type RankParams } from "../../src/queries/run/missing-rank.ts";
import { ancestors, hist, lsTree, readHistory } from "./cochange-trial.ts";
import { commitPatches, stillThere, coordinateSearch, top, type Change } from "./missing-trial.ts";
import { num, type Table } from "./report.ts";

type Hist = ReturnType<typeof hist>;

export interface HeldOut extends Change {
  /** The commit's parent: what the change is read against. */
  parent: string;
  /** The commit (an index into the history). */
  commit: number;
  held: string;
  split: "tune" | "test";
}

export interface Half extends Change {
  parent: string;
  held: string[];
}

export function heldOutQueries(repo: string, h: Hist, n: number): HeldOut[] {
  const evals: number[] = [];
  for (let i = 0; i < h.commits.length && evals.length < n; i++) {
    const c = h.commits[i]!;
    if (c.parents.length === 1 && c.files.length >= 3 && c.files.length <= 30 && h.index.has(c.parents[0]!)) evals.push(i);
  }
  const out: HeldOut[] = [];
  evals.forEach((i, k) => {
    const c = h.commits[i]!;
    const parent = c.parents[0]!;
    const existing = lsTree(repo, parent);
    const past = ancestors(h, parent);
    const { words, imports, removed } = commitPatches(repo, c.sha);
    const found = stillThere(repo, parent, [...new Set([...removed.values()].flat())]);
    for (const held of c.files) {
      if (!existing.has(held)) continue;
      const change = c.files.filter((f) => f !== held);
      if (!change.some((f) => existing.has(f))) continue;
      out.push({ parent, commit: i, change, held, existing, past, words, imports, removed, found, split: k < n / 2 ? "test" : "tune" });
    }
  });
  return out;
}

const hash = (s: string) => [...s].reduce((x, ch) => (x * 31 + ch.charCodeAt(0)) >>> 0, 7);

/** Each held-out commit once, its files in two halves (by a hash of the name): the first is the change, the second's files that existed before are held out. */
export function halves(h: Hist, qs: HeldOut[]): Half[] {
  const out: Half[] = [];
  const seen = new Set<number>();
  for (const q of qs) {
    if (seen.has(q.commit)) continue;
    seen.add(q.commit);
    const files = [...h.commits[q.commit]!.files].sort((a, b) => hash(a) - hash(b) || (a < b ? -1 : 1));
    const change = files.slice(0, Math.ceil(files.length / 2));
    const held = files.slice(change.length).filter((f) => q.existing.has(f));
    if (held.length && change.some((f) => q.existing.has(f))) out.push({ parent: q.parent, change, held, existing: q.existing, past: q.past, words: q.words, imports: q.imports, removed: q.removed, found: q.found });
  }
  return out;
}

/** Raw co-occurrence counts: the commits of the repository's newest 500 before the change that touched a changed file (of ≤ 50 files), each file in them counted once per commit. */
export function rawCounts(h: Hist, q: Change): string[] {
  const leave = new Set(q.change);
  const count = new Map<string, number>();
  for (let k = 0; k < q.past.length && k < 500; k++) {
    const names = h.commits[q.past[k]!]!.files;
    if (names.length > 50 || !names.some((f) => leave.has(f) && q.existing.has(f))) continue;
    for (const b of names) if (!leave.has(b) && q.existing.has(b)) count.set(b, (count.get(b) ?? 0) + 1);
  }
  return [...count].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([p]) => p);
}

/** review's missing before issue 33, as it was answered: cochange over all the changed files at once, the change left out (lockfiles kept, as then). */
async function cochangeMissing(ctx: QueryContext, parent: string, change: string[]): Promise<string[]> {
  const paths = change.filter((p) => ctx.index.store.history.pathId(p) !== undefined);
  if (paths.length === 0) return [];
  const leave = new Set(change);
  const r = await cochange(ctx, { paths, changed: false, limit: 5 + change.length, commits: String(PER_FILE), since: undefined, maxFiles: 50, all: true, repo: undefined, until: parent });
  return r.results.map((x) => x.path).filter((p) => !leave.has(p)).slice(0, 5);
}

const asChange = (q: Change): ChangedFile[] =>
  q.change.map((path) => ({ status: q.existing.has(path) ? "M" : "A", path, oldMode: "100644", newMode: "100644", additions: 1, deletions: 1, deleted: [], words: q.words?.get(path) ?? [], imports: q.imports?.get(path) ?? [], removed: q.removed?.get(path) ?? [] }));

export interface Scores {
  hit5: number;
  recall5: number;
}

export interface MultiResult {
  label: string;
  commits: number;
  test: number;
  tune: number;
  halves: number;
  raw: Scores;
  /** review's missing before: cochange over the change, as answered. */
  before: Scores;
  /** review's missing now, as answered. */
  lore: Scores;
  /** The same ranking replayed in memory from git log (agrees with `lore` but for the index's own bookkeeping). */
  replay: number;
  /** hit@5 on the tuning half: raw, before, now. */
  tuneHit: [number, number, number];
  /** The parameters this repository's tuning half picks, and their hit@5 there and held out (first repository only). */
  tuned?: { params: RankParams; tune: number; test: number };
  seconds: number;
}

const mean = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0) / Math.max(1, xs.length);
const hit5 = (ranked: string[], held: string) => (ranked.slice(0, 5).includes(held) ? 1 : 0);
const recall5 = (ranked: string[], held: string[]) => ranked.slice(0, 5).filter((p) => held.includes(p)).length / held.length;

/** In this process against $LORE_HOME's index of `repo` (built if missing); `tune` searches the parameters on the tuning half. */
export async function measureMissing(repo: string, label: string, n = 200, tune = false): Promise<MultiResult> {
  const started = performance.now();
  const h = hist(readHistory(repo));
  const qs = heldOutQueries(repo, h, 2 * n);
  const test = qs.filter((q) => q.split === "test");
  const tuneQs = qs.filter((q) => q.split === "tune");
  const split = halves(h, test);
  const index = await indexFor(repo);
  await index.refresh();
  const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: 2 };
  const now = async (q: Change & { parent: string }) => (await missingOf(ctx, q.parent, asChange(q), 5)).map((m) => m.path);
  const score = async (f: (q: Change & { parent: string }) => string[] | Promise<string[]>): Promise<Scores> => {
    let hit = 0;
    for (const q of test) hit += hit5(await f(q), q.held);
    let rec = 0;
    for (const q of split) rec += recall5(await f(q), q.held);
    return { hit5: hit / Math.max(1, test.length), recall5: rec / Math.max(1, split.length) };
  };
  const raw = await score((q) => rawCounts(h, q));
  const before = await score((q) => cochangeMissing(ctx, q.parent, q.change));
  const lore = await score(now);
  const replay = mean(test, (q) => hit5(top(h, q, MISSING_PARAMS), q.held));
  const tuneHit: [number, number, number] = [mean(tuneQs, (q) => hit5(rawCounts(h, q), q.held)), 0, mean(tuneQs, (q) => hit5(top(h, q, MISSING_PARAMS), q.held))];
  for (const q of tuneQs) tuneHit[1] += hit5(await cochangeMissing(ctx, q.parent, q.change), q.held) / tuneQs.length;
  let tuned: MultiResult["tuned"];
  if (tune) {
    const t = coordinateSearch(MISSING_PARAMS, (p) => mean(tuneQs, (q) => hit5(top(h, q, p), q.held)));
    tuned = { params: t.params, tune: t.score, test: mean(test, (q) => hit5(top(h, q, t.params), q.held)) };
  }
  return { label, commits: 2 * n, test: test.length, tune: tuneQs.length, halves: split.length, raw, before, lore, replay, tuneHit, ...(tuned ? { tuned } : {}), seconds: (performance.now() - started) / 1000 };
}

const sign = (d: number) => (d >= 0 ? "+" : "") + d.toFixed(3);
const mark = (ok: boolean) => (ok ? "✓" : "✗");

/** One repository's figures: raw counts, review before, review now, on held-out and tuning commits. */
export function missingTable(r: MultiResult): Table {
  const row = (name: string, s: Scores, t: number) => [name, num(s.hit5), num(s.recall5), num(t)];
  return {
    title: `review's missing on held-out history: ${r.label}`,
    head: ["ranking", "held-out hit@5", "held-out recall@5 (halves)", "tuning half hit@5"],
    rows: [row("raw co-occurrence counts (newest 500 commits)", r.raw, r.tuneHit[0]), row("lore before (cochange over the change)", r.before, r.tuneHit[1]), row("lore now (the change as a whole)", r.lore, r.tuneHit[2])],
    notes: [
      `The ${r.commits} newest non-merge commits of 3–30 files, each asked as of its parent: hit@5 holds out each file in turn (${r.test} held-out queries, ${r.tune} tuning); recall@5 splits each held-out commit in two halves by a hash of the names (${r.halves} commits). ` +
        `Now against raw counts ${sign(r.lore.hit5 - r.raw.hit5)} (target ≥ +0.20 ${mark(r.lore.hit5 - r.raw.hit5 >= 0.2)}), against before ${sign(r.lore.hit5 - r.before.hit5)} (target ≥ +0.10 ${mark(r.lore.hit5 - r.before.hit5 >= 0.1)}). ` +
        `The ranking replayed from git log: ${num(r.replay)}.` +
        (r.tuned
          ? ` A coordinate search on this tuning half picks ${JSON.stringify(r.tuned.params)}: ${num(r.tuned.tune)} there, ${num(r.tuned.test)} held out.`
          : ` The parameters were chosen on the older halves of both corpus repositories together (test/bench/missing-tune.ts, which never builds the newer halves): the tuning half is in sample (now ${sign(r.tuneHit[2] - r.tuneHit[0])} against raw counts, ${sign(r.tuneHit[2] - r.tuneHit[1])} against before), the held-out half is not.`) +
        ` (${r.seconds.toFixed(0)} s)`,
    ],
  };
}

/** Every repository's held-out figures in one table, with the targets. */
export function missingSummary(results: MultiResult[]): Table {
  return {
    title: "review's missing: held-out commits, hit@5 (recall@5)",
    head: ["repository", "raw counts", "lore before", "lore now", "now − raw (≥ +0.20)", "now − before (≥ +0.10)"],
    rows: results.map((r) => {
      const s = (x: Scores) => `${num(x.hit5)} (${num(x.recall5)})`;
      const d1 = r.lore.hit5 - r.raw.hit5;
      const d2 = r.lore.hit5 - r.before.hit5;
      return [r.label, s(r.raw), s(r.before), s(r.lore), `${sign(d1)} ${mark(d1 >= 0.2)}`, `${sign(d2)} ${mark(d2 >= 0.1)}`];
    }),
    align: "lrrrrr",
  };
}
