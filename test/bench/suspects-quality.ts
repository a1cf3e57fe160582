/**
 * How well lore suspects finds the commit that caused a bug (`npm run bench:suspects`): fixes whose
 * messages name it (reverts, "introduced in", "broken by", "regression from", "Fixes:", "caused by"),
 * from express and hono and from generated histories with planted bugs, each asked as of the fix's
 * parent. hit@1 and hit@5 of lore against plain SZZ (git blame of the lines the fix deletes, most
 * lines first). The weights are tuned on express + one generated history and reported on hono + another.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { answer } from "../../src/queries/answer.ts";
import { parseBlamePorcelain } from "../../src/git/parse-blame.ts";
import { parseFix } from "../../src/queries/run/suspect-fix.ts";
import { RANK } from "../../src/queries/run/suspect-rank.ts";
import { tempDir } from "../helpers/git-repo.ts";
import { generate } from "./suspects-gen.ts";

const CORPUS = process.env.LORE_CORPUS ?? join(import.meta.dir, "..", "..", "..", "shared", "corpus");
process.env.LORE_HOME = tempDir("lore-bench-suspects-home-");
const work = tempDir("lore-bench-suspects-");

const git = (dir: string, args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
const NAMES = /(?:reverts commit|introduced (?:in|by)|broken by|broke in|regression (?:from|in|since)|caused by|since|Fixes:)\s+\(?([0-9a-f]{7,40})\b/gi;

interface Case {
  repo: string;
  fix: string;
  bug: string;
  kind: string;
}

/** The fixes whose message names an ancestor of their parent as the cause. */
function labelled(repo: string, kind = "corpus"): Case[] {
  const out: Case[] = [];
  for (const rec of git(repo, ["log", "--no-merges", "--format=%x01%H%x00%B"]).stdout.split("\x01")) {
    const [fix, body] = rec.split("\0");
    if (!fix || !body) continue;
    for (const m of body.matchAll(NAMES)) {
      const bug = git(repo, ["rev-parse", "-q", "--verify", `${m[1]}^{commit}`]).stdout.trim();
      if (!bug || git(repo, ["merge-base", "--is-ancestor", bug, `${fix}^`]).status !== 0) continue;
      out.push({ repo, fix, bug, kind });
      break;
    }
  }
  return out;
}

/** Plain SZZ: git blame at the parent of the lines the fix deletes, commits by lines, most first. */
function szz(c: Case): string[] {
  const counts = new Map<string, number>();
  for (const f of parseFix(git(c.repo, ["diff", "-U0", "--no-color", "-M", `${c.fix}^`, c.fix]).stdout)) {
    if (f.isNew || f.deleted.length === 0) continue;
    const r = spawnSync("git", ["blame", "--porcelain", ...f.deleted.flatMap(([a, b]) => ["-L", `${a},${b}`]), `${c.fix}^`, "--", f.path], { cwd: c.repo, maxBuffer: 1 << 28 });
    if (r.status !== 0) continue;
    for (const h of parseBlamePorcelain(r.stdout).hunks) counts.set(h.sha, (counts.get(h.sha) ?? 0) + h.end - h.start + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([s]) => s);
}

async function lore(c: Case): Promise<string[]> {
  const a = (await answer("suspects", { repo: c.repo, rev: c.fix }, { cwd: c.repo })) as { suspects: { sha: string }[] };
  return a.suspects.map((s) => s.sha);
}

const hit = (list: string[], bug: string, k: number) => list.slice(0, k).some((s) => bug.startsWith(s));

async function score(cases: Case[], szzLists: Map<Case, string[]>): Promise<{ lore1: number; lore5: number; szz1: number; szz5: number }> {
  let [l1, l5, s1, s5] = [0, 0, 0, 0];
  for (const c of cases) {
    const l = await lore(c);
    const s = szzLists.get(c)!;
    l1 += +hit(l, c.bug, 1);
    l5 += +hit(l, c.bug, 5);
    s1 += +hit(s, c.bug, 1);
    s5 += +hit(s, c.bug, 5);
  }
  const n = Math.max(1, cases.length);
  return { lore1: l1 / n, lore5: l5 / n, szz1: s1 / n, szz5: s5 / n };
}

function clone(name: string): string {
  const dir = join(work, name);
  git(work, ["clone", "-q", join(CORPUS, `${name}.bundle`), dir]);
  return dir;
}

function generated(name: string, seed: number): Case[] {
  const dir = join(work, name);
  const fixes = generate(dir, seed, 40);
  return fixes.flatMap(({ fix, kind }) => labelled(dir, kind).filter((c) => c.fix === fix));
}

const tune = [...labelled(clone("express")), ...generated("gen-a", 1)];
const held = [...labelled(clone("hono")), ...generated("gen-b", 2)];
const szzOf = new Map<Case, string[]>([...tune, ...held].map((c) => [c, szz(c)]));

// A small grid over the weights, on the tuning set only.
const grid: Partial<typeof RANK>[] = [];
for (const power of [0.3, 0.5, 1]) for (const release of [0, 0.5, 1.5]) for (const restore of [1, 3]) for (const noisy of [0.1, 0.5]) grid.push({ power, release, restore, noisy });
let best = { ...RANK };
let bestScore = -1;
for (const g of grid) {
  Object.assign(RANK, g);
  const s = await score(tune, szzOf);
  if (s.lore1 + s.lore5 > bestScore + 1e-9) (bestScore = s.lore1 + s.lore5), (best = { ...RANK });
}
Object.assign(RANK, best);
console.log(`chosen weights: ${JSON.stringify(best)}`);

const f = (x: number) => x.toFixed(2);
const rows: string[] = ["| set | fixes | lore hit@1 | SZZ hit@1 | lore hit@5 | SZZ hit@5 |", "|---|---|---|---|---|---|"];
const sets: [string, Case[]][] = [
  ["tuning: express", tune.filter((c) => c.kind === "corpus")],
  ["tuning: generated (seed 1)", tune.filter((c) => c.kind !== "corpus")],
  ["held out: hono", held.filter((c) => c.kind === "corpus")],
  ["held out: generated (seed 2)", held.filter((c) => c.kind !== "corpus")],
  ["held out: all", held],
];
for (const [name, cases] of sets) {
  const s = await score(cases, szzOf);
  rows.push(`| ${name} | ${cases.length} | ${f(s.lore1)} | ${f(s.szz1)} | ${f(s.lore5)} | ${f(s.szz5)} |`);
}
console.log(rows.join("\n"));
const byKind = held.filter((c) => c.kind !== "corpus");
for (const kind of [...new Set(byKind.map((c) => c.kind))]) {
  const s = await score(byKind.filter((c) => c.kind === kind), szzOf);
  console.log(`held out, ${kind}: lore ${f(s.lore1)}/${f(s.lore5)}, SZZ ${f(s.szz1)}/${f(s.szz5)}`);
}
process.exit(0);
