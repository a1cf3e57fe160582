/**
 * review's `missing` on held-out history: for each of the newest 2N non-merge commits of 3–30
 * files, every file that existed before it is held out in turn, the rest of the commit is the
 * change, and the question is whether the held-out file is in the top 5 of what the change may
 * have missed. The older N commits tune (the candidates below), the newer N are held out; lore's
 * answer as given (review's missingOf as of the parent) is scored on them beside raw co-occurrence counts.
 */
import { indexFor } from "../../src/index/indexes.ts";
import type { ChangedFile } from "../../src/git/parse-diff-hunks.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { missingOf } from "../../src/queries/run/review-missing.ts";
import { ancestors, hist, lsTree, readHistory } from "./cochange-trial.ts";
import { num, type Table } from "./report.ts";

type Hist = ReturnType<typeof hist>;

export interface HeldOut {
  /** The commit's parent: what the change is read against. */
  parent: string;
  /** The change: the commit's other files (added ones included: they are left out of the ranking, never asked about). */
  change: string[];
  held: string;
  existing: Set<string>;
  /** The parent's ancestors, newest first (indexes into the history). */
  past: number[];
  split: "tune" | "test";
}

export interface MultiVariant {
  name: string;
  /** The newest K commits of each changed file (null: the repository's newest `repoWindow` commits). */
  fileWindow: number | null;
  repoWindow: number;
  weight: "1" | "invSqrt" | "invFiles";
  halfLife: number;
  /** How the changed files' weights in one commit add up: their sum (cochange's), their maximum, or one per commit. */
  combine: "sum" | "max" | "one";
}

const MAX_FILES = 50;

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
    for (const held of c.files) {
      if (!existing.has(held)) continue;
      const change = c.files.filter((f) => f !== held);
      if (!change.some((f) => existing.has(f))) continue;
      out.push({ parent, change, held, existing, past, split: k < n / 2 ? "test" : "tune" });
    }
  });
  return out;
}

/** Candidates ranked best first, the change itself left out, only files that existed at the parent. */
export function rankMissing(h: Hist, q: HeldOut, v: MultiVariant): string[] {
  const inputs = new Set(q.change.filter((f) => q.existing.has(f)));
  const leave = new Set(q.change);
  const score = new Map<string, { w: number; count: number }>();
  const add = (names: string[], w: number) => {
    for (const b of names) {
      if (leave.has(b) || !q.existing.has(b)) continue;
      const x = score.get(b) ?? { w: 0, count: 0 };
      x.w += w;
      x.count++;
      score.set(b, x);
    }
  };
  const size = (n: number) => (v.weight === "1" ? 1 : v.weight === "invSqrt" ? 1 / Math.sqrt(n - 1) : 1 / (n - 1));
  if (v.fileWindow === null) {
    for (let k = 0; k < q.past.length && k < v.repoWindow; k++) {
      const names = h.commits[q.past[k]!]!.files;
      if (names.length > MAX_FILES || !names.some((f) => inputs.has(f))) continue;
      add(names, size(names.length));
    }
  } else {
    // Each input's newest K commits, its rank i in them: the commit's weight for that input 2^(−i/halfLife).
    const byCommit = new Map<number, number[]>();
    for (const a of inputs) {
      let i = 0;
      for (let k = 0; k < q.past.length && i < v.fileWindow; k++) {
        const names = h.commits[q.past[k]!]!.files;
        if (names.length > MAX_FILES || !names.includes(a)) continue;
        const list = byCommit.get(k) ?? [];
        list.push(v.halfLife ? 2 ** (-i / v.halfLife) : 1);
        byCommit.set(k, list);
        i++;
      }
    }
    for (const [k, ws] of byCommit) {
      const names = h.commits[q.past[k]!]!.files;
      const rec = v.combine === "sum" ? ws.reduce((s, w) => s + w, 0) : v.combine === "max" ? Math.max(...ws) : 1;
      add(names, size(names.length) * rec);
    }
  }
  return [...score].sort((x, y) => y[1].w - x[1].w || y[1].count - x[1].count || (x[0] < y[0] ? -1 : 1)).map(([p]) => p);
}

export const RAW: MultiVariant = { name: "raw co-occurrence count, newest 500 commits of the repository", fileWindow: null, repoWindow: 500, weight: "1", halfLife: 0, combine: "one" };
export const LORE: MultiVariant = { name: "cochange's ranking over all changed files: newest 200 of each, Σ inputs 2^(−i/50)/√(files−1)", fileWindow: 200, repoWindow: 0, weight: "invSqrt", halfLife: 50, combine: "sum" };

export function multiVariants(): MultiVariant[] {
  const out = [LORE, RAW, { ...RAW, name: "raw co-occurrence count, every commit", repoWindow: 1e9 }];
  for (const K of [50, 200, 1e9])
    for (const weight of ["1", "invSqrt", "invFiles"] as const)
      for (const halfLife of [0, 50])
        for (const combine of ["sum", "max", "one"] as const) {
          if (K === LORE.fileWindow && weight === LORE.weight && halfLife === LORE.halfLife && combine === LORE.combine) continue;
          out.push({ name: `newest ${K >= 1e9 ? "all" : K} of each changed file's commits, ${weight === "1" ? "count" : weight === "invSqrt" ? "1/√(files−1)" : "1/(files−1)"}${halfLife ? ` × 2^(−i/${halfLife})` : ""}, ${combine} over the inputs`, fileWindow: K, repoWindow: 0, weight, halfLife, combine });
        }
  return out;
}

const hit5 = (ranked: string[], held: string) => (ranked.slice(0, 5).includes(held) ? 1 : 0);

export interface MultiResult {
  label: string;
  commits: number;
  test: number;
  tune: number;
  /** hit@5 of lore's answer as given (review's missing), held-out queries only. */
  lore: number;
  rows: { name: string; test: number; tune: number }[];
  seconds: number;
}

/** In this process against $LORE_HOME's index of `repo` (built if missing). */
export async function measureMissing(repo: string, label: string, n = 200): Promise<MultiResult> {
  const started = performance.now();
  const h = hist(readHistory(repo));
  const qs = heldOutQueries(repo, h, 2 * n);
  const test = qs.filter((q) => q.split === "test");
  const tune = qs.filter((q) => q.split === "tune");
  const mean = (xs: HeldOut[], f: (q: HeldOut) => number) => xs.reduce((s, q) => s + f(q), 0) / Math.max(1, xs.length);
  const rows = multiVariants().map((v) => ({ name: v.name, test: mean(test, (q) => hit5(rankMissing(h, q, v), q.held)), tune: mean(tune, (q) => hit5(rankMissing(h, q, v), q.held)) }));
  const index = await indexFor(repo);
  await index.refresh();
  const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: 2 };
  let lore = 0;
  for (const q of test) {
    const files: ChangedFile[] = q.change.map((path) => ({ status: q.existing.has(path) ? "M" : "A", path, oldMode: "100644", newMode: "100644", additions: 1, deletions: 1, deleted: [] }));
    const found = await missingOf(ctx, q.parent, files, 5);
    lore += hit5(found.map((m) => m.path), q.held);
  }
  return { label, commits: 2 * n, test: test.length, tune: tune.length, lore: lore / Math.max(1, test.length), rows, seconds: (performance.now() - started) / 1000 };
}

const sign = (d: number) => (d >= 0 ? "+" : "") + d.toFixed(3);

export function missingTable(r: MultiResult): Table {
  const raw = r.rows[1]!;
  const byTune = [...r.rows].sort((a, b) => b.tune - a.tune);
  const shown = [r.rows[0]!, r.rows[1]!, r.rows[2]!, ...byTune.filter((x) => !r.rows.slice(0, 3).includes(x)).slice(0, 5)];
  return {
    title: `review's missing on held-out history: ${r.label}`,
    head: ["ranking", "held-out hit@5", "tuning half hit@5"],
    rows: [["lore review as answered (missing, top 5)", num(r.lore), ""], ...shown.map((x) => [x.name, num(x.test), num(x.tune)])],
    notes: [
      `The ${r.commits} newest non-merge commits of 3–30 files; in each, every file that existed before it is held out in turn and the rest of the commit is the change, asked as of the parent. ` +
        `The older half (${r.tune} queries) tunes (best there: ${byTune[0]!.name}); the newer half (${r.test} queries) is held out. ` +
        `lore as answered vs raw co-occurrence counts: hit@5 ${num(r.lore)} vs ${num(raw.test)} (${sign(r.lore - raw.test)}; target ≥ +0.05 ${r.lore - raw.test >= 0.05 ? "✓" : "✗"}). (${r.seconds.toFixed(0)} s)`,
    ],
  };
}

/** lore as answered against raw counts on each repository's held-out commits, and the variant the first repository's tuning half chose, scored on all of them. */
export function missingSummary(results: MultiResult[]): Table {
  const tuned = [...results[0]!.rows].sort((a, b) => b.tune - a.tune)[0]!;
  const rows = results.map((r) => {
    const raw = r.rows[1]!.test;
    const pick = r.rows.find((x) => x.name === tuned.name)!.test;
    return [r.label, num(r.lore), num(raw), sign(r.lore - raw), r.lore - raw >= 0.05 ? "≥ +0.05 ✓" : "≥ +0.05 ✗", `${num(pick)} (${sign(pick - raw)})`];
  });
  return {
    title: "review's missing: hit@5 on held-out commits, lore against raw co-occurrence counts",
    head: ["repository", "lore", "raw count", "difference", "target", `tuned on ${results[0]!.label}: ${tuned.name}`],
    rows,
    align: "lrrrlr",
  };
}
