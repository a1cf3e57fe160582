/**
 * review's missing replayed in memory: the evidence the reader gathers from the index (each changed
 * file's newest commits before the change, the files at the parent), built from one `git log`, so
 * ranking parameters can be tried on thousands of held-out questions in seconds.
 */
import { rankMissing, type Evidence, type PastCommit, type RankParams } from "../../src/queries/run/missing-rank.ts";
import { execFileSync, spawnSync } from "node:child_process";
import { diffImports } from "../../src/git/diff-imports.ts";
import { diffRemoved } from "../../src/git/diff-removed.ts";
import { parseGrep, remainsOf } from "../../src/queries/run/missing-remains.ts";
import { diffWords } from "../../src/git/diff-words.ts";
import { patchLines } from "../../src/git/patch-lines.ts";
import type { hist } from "./cochange-trial.ts";

type Hist = ReturnType<typeof hist>;

/** A question: the change (every name in it), what existed before it, the history before it (indexes into h.commits, newest first). */
export interface Change {
  change: string[];
  /** The words of each changed file's patch (diff-words.ts), when known. */
  words?: ReadonlyMap<string, string[]>;
  /** The relative modules each changed file's added lines import (diff-imports.ts), when known. */
  imports?: ReadonlyMap<string, string[]>;
  /** The lines each changed file's patch removes (diff-removed.ts), and the files at the parent that have each (stillThere). */
  removed?: ReadonlyMap<string, string[]>;
  found?: ReadonlyMap<string, ReadonlySet<string>>;
  existing: Set<string>;
  past: number[];
}

const MAX_FILES = 50;
const PER_FILE = 200;
const RECENT = 100;

/** The evidence as of the change's parent, as review-missing.ts reads it from the index. */
export function evidenceOf(h: Hist, q: Change): Evidence {
  const inputs = q.change.filter((f) => q.existing.has(f));
  const slot = new Map(inputs.map((f, k) => [f, k]));
  const touches: number[][] = inputs.map(() => []);
  const commits = new Map<number, PastCommit>();
  const recent: number[] = [];
  for (let age = 0; age < q.past.length && recent.length < RECENT; age++) {
    const i = q.past[age]!;
    const files = h.commits[i]!.files;
    if (files.length > MAX_FILES || files.length === 0) continue;
    recent.push(i);
    if (!commits.has(i)) commits.set(i, { files, age });
  }
  let open = inputs.length;
  for (let age = 0; age < q.past.length && open > 0; age++) {
    const i = q.past[age]!;
    const files = h.commits[i]!.files;
    if (files.length > MAX_FILES) continue;
    for (const f of files) {
      const k = slot.get(f);
      if (k === undefined || touches[k]!.length >= PER_FILE) continue;
      touches[k]!.push(i);
      if (touches[k]!.length === PER_FILE) open--;
      if (!commits.has(i)) commits.set(i, { files, age });
    }
  }
  const words = new Set(q.change.flatMap((f) => q.words?.get(f) ?? []));
  const imports = new Map(q.change.flatMap((f) => (q.imports?.get(f)?.length ? [[f, q.imports.get(f)!] as const] : [])));
  const change = new Set(q.change);
  const removedBy = new Map(q.change.flatMap((f) => (q.removed?.get(f)?.length ? [[f, q.removed.get(f)!] as const] : [])));
  const remains = remainsOf(removedBy, q.found ?? new Map(), change, q.existing);
  return { inputs, touches, commits, tree: q.existing, change, added: q.change.filter((f) => !q.existing.has(f)), recent, words, imports, remains };
}

/** The words, added imports and removed lines of each file's patch in a commit (against its first parent), as review reads its own change. */
export function commitPatches(repo: string, sha: string): { words: Map<string, string[]>; imports: Map<string, string[]>; removed: Map<string, string[]> } {
  const out = execFileSync("git", ["-c", "core.quotepath=off", "show", "--format=", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", sha], { cwd: repo, maxBuffer: 1 << 28 }).toString("latin1");
  const words = new Map<string, string[]>();
  const imports = new Map<string, string[]>();
  const removed = new Map<string, string[]>();
  const utf8 = (s: string) => Buffer.from(s, "latin1").toString("utf8");
  for (const section of out.split(/^(?=diff --git )/m)) {
    const m = /^\+\+\+ b\/(.*)$/m.exec(section) ?? /^--- a\/(.*)$/m.exec(section);
    if (!m) continue;
    const lines = patchLines(section);
    words.set(utf8(m[1]!), diffWords(lines));
    imports.set(utf8(m[1]!), diffImports(lines).map(utf8));
    removed.set(utf8(m[1]!), diffRemoved(lines));
  }
  return { words, imports, removed };
}

/** The files at `rev` that have each of the lines, as review's reader asks git (review-missing.ts): one git grep for a whole commit's lines. */
export function stillThere(repo: string, rev: string, lines: string[]): Map<string, Set<string>> {
  if (lines.length === 0) return new Map();
  const r = spawnSync("git", ["grep", "-F", "-o", "-z", "-I", "--full-name", "--no-line-number", "--no-column", ...lines.flatMap((l) => ["-e", l]), rev, "--"], { cwd: repo, maxBuffer: 1 << 28 });
  return parseGrep(r.stdout.toString("utf8"), rev);
}

const known = new WeakMap<Change, Evidence>();

/** The top `n` for a question (its evidence read once). */
export function top(h: Hist, q: Change, p: RankParams, n = 5): string[] {
  let e = known.get(q);
  if (!e) known.set(q, (e = evidenceOf(h, q)));
  return rankMissing(e, p, n).map((r) => r.path);
}

/** Values tried for each parameter by the coordinate search. */
export const GRID: Partial<Record<keyof RankParams, number[]>> = {
  halfLife: [10, 25, 50, 100, 1e9],
  ageHalfLife: [0, 300, 1000, 3000],
  sizePow: [0, 0.25, 0.5, 0.75, 1],
  sharePow: [0, 0.5, 1, 1.5, 2, 3],
  breadthPow: [0, 0.5, 1, 1.5],
  normalize: [0, 0.25, 0.5, 0.75, 1],
  habit: [0, 0.25, 0.5, 1, 2],
  place: [0, 0.5, 1, 2, 4],
  words: [0, 0.25, 0.5, 1, 2],
  perInput: [0, 0.5, 0.75, 1],
  partner: [0, 4, 8, 16, 32],
  partnerPow: [2, 4, 8, 16],
  partnerWindow: [10, 20, 40],
  analogy: [0, 4, 8, 16, 32],
  analogyPow: [1, 2, 3],
  remains: [0, 1, 2, 4, 8],
  remainsPow: [1, 2, 3],
  imports: [0, 0.1, 0.25, 0.5, 1, 2],
};

/**
 * Coordinate ascent from `start` on `score` (one parameter at a time over GRID, then the name
 * weights scaled), `rounds` passes: the parameters the tuning questions like best. A step must
 * gain `minGain` (about one question in two hundred) to be taken: smaller ones are noise.
 */
export function coordinateSearch(start: RankParams, score: (p: RankParams) => number, rounds = 2, minGain = 0.005): { params: RankParams; score: number } {
  let best = start;
  let bestScore = score(start);
  for (let r = 0; r < rounds; r++) {
    for (const [key, values] of Object.entries(GRID) as [keyof RankParams, number[]][])
      for (const v of values) {
        const p = { ...best, [key]: v } as RankParams;
        const s = score(p);
        if (s >= bestScore + minGain) [best, bestScore] = [p, s];
      }
    for (const k of [0, 0.5, 2, 4]) {
      const n = start.names;
      const p = { ...best, names: { test: n.test * k, tested: n.tested * k, types: n.types * k, named: n.named * k } };
      const s = score(p);
      if (s >= bestScore + minGain) [best, bestScore] = [p, s];
    }
  }
  return { params: best, score: bestScore };
}
