/**
 * Co-change candidates tried on held-out history, in memory from one `git log` per repository:
 * windows (the repository's newest N commits, or the newest K commits that touched the file),
 * weights (commit size, recency) and rename-aware names. Chosen on the older half of the
 * evaluation commits ("tune"), reported on the newer half ("test").
 */
import { execFileSync } from "node:child_process";
import { ZERO, add, mean, score, type Scores } from "./rankings.ts";

export interface TrialCommit {
  sha: string;
  parents: string[];
  /** Current-at-the-time paths changed (none for a merge). */
  files: string[];
  /** [old, new] for each rename. */
  renames: [string, string][];
}

/** Newest first, as git log lists them. */
export function readHistory(repo: string): TrialCommit[] {
  const out = execFileSync("git", ["-c", "core.quotepath=off", "log", "-M", "--name-status", "-z", "--format=%x01%H %P"], { cwd: repo, maxBuffer: 1 << 30 }).toString("utf8");
  const commits: TrialCommit[] = [];
  for (const chunk of out.split("\x01").slice(1)) {
    const nul = chunk.indexOf("\0");
    const head = nul < 0 ? chunk : chunk.slice(0, nul);
    const [sha, ...parents] = head.trim().split(" ");
    const f = nul < 0 ? [] : chunk.slice(nul + 1).replace(/^\n/, "").split("\0");
    const files: string[] = [];
    const renames: [string, string][] = [];
    for (let i = 0; i < f.length; ) {
      const st = f[i]!.trim();
      if (!st) {
        i++;
        continue;
      }
      if (st[0] === "R" || st[0] === "C") {
        if (st[0] === "R") renames.push([f[i + 1]!, f[i + 2]!]);
        files.push(f[i + 2]!);
        i += 3;
      } else {
        files.push(f[i + 1]!);
        i += 2;
      }
    }
    commits.push({ sha: sha!, parents: parents.filter(Boolean), files, renames });
  }
  return commits;
}

export interface Variant {
  name: string;
  /** null: the repository's newest `repoWindow` commits; a number: the newest K commits that touched the file. */
  fileWindow: number | null;
  repoWindow: number;
  weight: "1" | "invLog" | "invFiles" | "invSqrt";
  /** Half-life in the file's own changes (0: none). */
  halfLife: number;
  renames: boolean;
  /** Tie-break after the weighted sum: count, then the candidate's own changes. */
}

interface Hist {
  commits: TrialCommit[];
  index: Map<string, number>;
}

/** The indexes (into commits, newest first) of the ancestors of `sha`, itself included, in log order. */
export function ancestors(h: Hist, sha: string): number[] {
  const seen = new Set<number>();
  const stack = [h.index.get(sha)!];
  while (stack.length) {
    const i = stack.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    for (const p of h.commits[i]!.parents) {
      const j = h.index.get(p);
      if (j !== undefined && !seen.has(j)) stack.push(j);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

const MAX_FILES = 50;

export interface Query {
  file: string;
  /** The commit the question is asked as of. */
  parent: string;
  targets: Set<string>;
  /** The history before the commit: ancestor indexes newest first. */
  past: number[];
  existing: Set<string>;
  split: "tune" | "test";
}

/** Files present at the commit: replay of adds/deletes is costly; approximate with paths that appear in past history and not deleted (via git ls-tree). */
export function lsTree(repo: string, sha: string): Set<string> {
  return new Set(execFileSync("git", ["-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--name-only", sha], { cwd: repo, maxBuffer: 1 << 28 }).toString("utf8").split("\0").filter(Boolean));
}

export function queries(repo: string, h: Hist, n: number): Query[] {
  const evals: number[] = [];
  for (let i = 0; i < h.commits.length && evals.length < n; i++) {
    const c = h.commits[i]!;
    if (c.parents.length !== 1 || c.files.length < 2 || c.files.length > 30) continue;
    evals.push(i);
  }
  const out: Query[] = [];
  evals.forEach((i, k) => {
    const c = h.commits[i]!;
    const parent = c.parents[0]!;
    if (!h.index.has(parent)) return;
    const past = ancestors(h, parent);
    const existing = lsTree(repo, parent);
    for (const a of c.files) {
      if (!existing.has(a)) continue;
      const targets = new Set(c.files.filter((f) => f !== a && existing.has(f)));
      if (targets.size === 0) continue;
      out.push({ file: a, parent, targets, past, existing, split: k < n / 2 ? "test" : "tune" });
    }
  });
  return out;
}

interface Prep {
  /** The file's commits (names as of the query), newest first. */
  mine: string[][];
  touching: Map<string, number>;
}

const prepCache = new WeakMap<Query, Map<string, Prep>>();

function prep(h: Hist, q: Query, renames: boolean, repoWindow: number | null): Prep {
  const key = `${renames}:${repoWindow}`;
  let m = prepCache.get(q);
  if (!m) prepCache.set(q, (m = new Map()));
  const known = m.get(key);
  if (known) return known;
  // Names as of the query's commit: walking the past newest first, an older name maps to its newer one.
  const alias = new Map<string, string>();
  const now = (p: string) => (renames ? (alias.get(p) ?? p) : p);
  const mine: string[][] = [];
  const touching = new Map<string, number>();
  for (let k = 0; k < q.past.length; k++) {
    if (repoWindow !== null && k >= repoWindow) break;
    const c = h.commits[q.past[k]!]!;
    const names = c.files.length <= MAX_FILES ? c.files.map(now) : [];
    if (renames) for (const [o, n] of c.renames) alias.set(o, now(n));
    for (const p of names) touching.set(p, (touching.get(p) ?? 0) + 1);
    if (names.includes(q.file)) mine.push(names);
  }
  const out = { mine, touching };
  m.set(key, out);
  return out;
}

export function rankFor(h: Hist, q: Query, v: Variant): string[] {
  const { mine, touching } = prep(h, q, v.renames, v.fileWindow === null ? v.repoWindow : null);
  const cands = new Map<string, { w: number; count: number }>();
  const K = v.fileWindow ?? Infinity;
  for (let seen = 0; seen < mine.length && seen < K; seen++) {
    const names = mine[seen]!;
    const n = names.length;
    const size = v.weight === "1" ? 1 : v.weight === "invLog" ? 1 / Math.log(n) : v.weight === "invFiles" ? 1 / (n - 1) : 1 / Math.sqrt(n - 1);
    const rec = v.halfLife ? 2 ** (-seen / v.halfLife) : 1;
    for (const b of names) {
      if (b === q.file || !q.existing.has(b)) continue;
      const x = cands.get(b) ?? { w: 0, count: 0 };
      x.w += size * rec;
      x.count++;
      cands.set(b, x);
    }
  }
  return [...cands]
    .map(([p, x]) => ({ p, w: x.w, count: x.count, t: touching.get(p) ?? 0 }))
    .sort((x, y) => y.w - x.w || y.count - x.count || y.t - x.t || (x.p < y.p ? -1 : 1))
    .map((x) => x.p);
}

export function evaluate(h: Hist, qs: Query[], v: Variant): { tune: Scores; test: Scores } {
  let tune = ZERO;
  let test = ZERO;
  let nt = 0;
  let ns = 0;
  for (const q of qs) {
    const s = score(rankFor(h, q, v), q.targets);
    if (q.split === "tune") {
      tune = add(tune, s);
      nt++;
    } else {
      test = add(test, s);
      ns++;
    }
  }
  return { tune: mean(tune, nt), test: mean(test, ns) };
}

export function hist(commits: TrialCommit[]): Hist {
  return { commits, index: new Map(commits.map((c, i) => [c.sha, i])) };
}

export const BASELINE: Variant = { name: "raw count, newest 500 commits of the repository (Go original)", fileWindow: null, repoWindow: 500, weight: "1", halfLife: 0, renames: false };

/** lore's default (src/queries/run/cochange.ts): the newest 200 commits of the file, Σ 2^(−i/50) / √(files − 1). */
export const DEFAULT: Variant = { name: "lore default: newest 200 of the file's commits, Σ 2^(−i/50)/√(files−1)", fileWindow: 200, repoWindow: 0, weight: "invSqrt", halfLife: 50, renames: false };

const WEIGHT_NAMES = { "1": "count", invLog: "Σ 1/ln(files)", invFiles: "Σ 1/(files−1)", invSqrt: "Σ 1/√(files−1)" } as const;

/** The candidates: the repository's window, or the file's newest K commits, by each weight, with and without recency and renames. */
export function variants(): Variant[] {
  const out: Variant[] = [DEFAULT, BASELINE, { ...BASELINE, name: "Σ 1/ln(files), newest 500 commits of the repository", weight: "invLog" }];
  for (const K of [50, 200, 1e9])
    for (const weight of ["1", "invLog", "invFiles", "invSqrt"] as const)
      for (const halfLife of [0, 50])
        for (const renames of [false, true]) {
          const v: Variant = { name: `newest ${K >= 1e9 ? "all" : K} of the file's commits, ${WEIGHT_NAMES[weight]}${halfLife ? ` × 2^(−i/${halfLife})` : ""}${renames ? ", rename-aware" : ""}`, fileWindow: K, repoWindow: 0, weight, halfLife, renames };
          if (!(K === DEFAULT.fileWindow && weight === DEFAULT.weight && halfLife === DEFAULT.halfLife && renames === DEFAULT.renames)) out.push(v);
        }
  return out;
}
