/**
 * Co-change quality on held-out history (`npm run bench:quality`): for each of the last N
 * non-merge commits with 2–30 files, ask co-change about each of its files as of the commit's
 * parent, and score the commit's other files against lore's answer and against other rankings
 * computed from the same window.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gitText } from "../../src/git/run.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { lsTree } from "../../src/index/tree.ts";
import { answer } from "../../src/queries/answer.ts";
import { generateRepo } from "./gen-repo.ts";
import { RANKINGS, ZERO, add, mean, rank, score, type Candidate, type Scores } from "./rankings.ts";
import { machine, machineLine, markdownTable, num, type Table } from "./report.ts";

export interface QualityOptions {
  /** Held-out commits to score (default 200). */
  commits?: number;
  /** Window of each question, as lore's default (500). */
  window?: number;
  maxFiles?: number;
  halfLife?: number;
}

export interface QualityResult {
  repo: string;
  evalCommits: number;
  queries: number;
  /** Queries whose file changed at least once in its window. */
  withHistory: number;
  /** Queries where lore's own top 10 equals the reimplemented default ranking's. */
  agreement: number;
  lore: Scores;
  rows: { name: string; scores: Scores }[];
  seconds: number;
}

interface CommitFiles {
  files: string[];
  nfiles: number;
}

/** Runs in this process against $LORE_HOME's index of `repo` (built if missing). */
export async function measureQuality(repo: string, opts: QualityOptions = {}): Promise<QualityResult> {
  const started = performance.now();
  const N = opts.commits ?? 200;
  const windowSize = opts.window ?? 500;
  const maxFiles = opts.maxFiles ?? 50;
  const halfLife = opts.halfLife ?? 100;
  const ix = await indexFor(repo);
  await ix.refresh();
  const h = ix.store.history;
  const cache = new Map<string, CommitFiles>();
  const filesOf = (sha: string): CommitFiles => {
    let c = cache.get(sha);
    if (!c) {
      const row = h.commitBySha(sha)!;
      c = { files: h.filesOf(row.id), nfiles: row.nfiles };
      cache.set(sha, c);
    }
    return c;
  };

  const evalShas: { sha: string; parent: string }[] = [];
  const log = (await gitText(["log", "--no-merges", "--format=%H %P", "-n", String(N * 20)], ix.git)).split("\n");
  for (const line of log) {
    const [sha, parent, extra] = line.split(" ");
    if (!sha || !parent || extra) continue;
    const n = filesOf(sha).nfiles;
    if (n >= 2 && n <= 30) evalShas.push({ sha, parent });
    if (evalShas.length >= N) break;
  }

  const totals = RANKINGS.map(() => ZERO);
  let loreTotal = ZERO;
  let queries = 0;
  let withHistory = 0;
  let agree = 0;
  for (const { sha, parent } of evalShas) {
    const scope = await ix.scope(parent);
    const window = ix.store.windows.windowShas({ scope: scope.table, limit: windowSize, since: null }).map((s) => ({ s, ...filesOf(s) })).filter((c) => c.nfiles <= maxFiles);
    const existing = new Set((await lsTree(ix, parent)).map((e) => e.path));
    const touching = new Map<string, number>();
    for (const c of window) for (const f of c.files) touching.set(f, (touching.get(f) ?? 0) + 1);
    const changed = filesOf(sha).files;
    for (const a of changed) {
      if (!existing.has(a)) continue;
      const targets = new Set(changed.filter((f) => f !== a && existing.has(f)));
      if (targets.size === 0) continue;
      queries++;
      const cands = new Map<string, Candidate>();
      let commitsA = 0;
      window.forEach((c, age) => {
        if (!c.files.includes(a)) return;
        commitsA++;
        const rec = 2 ** (-age / halfLife);
        for (const b of c.files) {
          if (b === a || !existing.has(b)) continue;
          let x = cands.get(b);
          if (!x) cands.set(b, (x = { path: b, count: 0, touching: touching.get(b)!, invLog: 0, invFiles: 0, recency: 0, recencyInvLog: 0 }));
          x.count++;
          x.invLog += 1 / Math.log(c.nfiles);
          x.invFiles += 1 / (c.nfiles - 1);
          x.recency += rec;
          x.recencyInvLog += rec / Math.log(c.nfiles);
        }
      });
      if (commitsA > 0) withHistory++;
      const list = [...cands.values()];
      const ranked = RANKINGS.map((r) => rank(list, commitsA, r));
      ranked.forEach((order, i) => (totals[i] = add(totals[i]!, score(order, targets))));
      const lore = ((await answer("cochange", { repo, path: a, until: parent, limit: 10 }, { cwd: repo }).catch(() => ({ results: [] }))) as { results: { path: string }[] }).results.map((r) => r.path);
      loreTotal = add(loreTotal, score(lore, targets));
      if (lore.join("\n") === ranked[0]!.slice(0, 10).join("\n")) agree++;
    }
  }
  return {
    repo,
    evalCommits: evalShas.length,
    queries,
    withHistory,
    agreement: agree / Math.max(1, queries),
    lore: mean(loreTotal, queries),
    rows: RANKINGS.map((r, i) => ({ name: r.name, scores: mean(totals[i]!, queries) })),
    seconds: (performance.now() - started) / 1000,
  };
}

export function qualityTable(q: QualityResult, label: string): Table {
  const row = (name: string, s: Scores) => [name, num(s.hit1), num(s.hit3), num(s.hit5), num(s.hit10), num(s.recall10), num(s.mrr10)];
  const base = q.rows[1]!.scores;
  const best = [...q.rows].sort((a, b) => b.scores.hit5 + b.scores.recall10 - (a.scores.hit5 + a.scores.recall10))[0]!;
  return {
    title: `Co-change quality on held-out history: ${label}`,
    head: ["ranking", "hit@1", "hit@3", "hit@5", "hit@10", "recall@10", "MRR@10"],
    rows: [row("lore cochange as answered (limit 10)", q.lore), ...q.rows.map((r) => row(r.name, r.scores))],
    notes: [
      `${q.evalCommits} newest non-merge commits with 2–30 files; each of their files that existed before the commit asked with until = commit^ (window 500 commits, maxFiles 50), scored against the commit's other files that existed before it: ${q.queries} queries, ${q.withHistory} with history in the window. ` +
        `lore's answer equals the reimplemented default ranking in ${(q.agreement * 100).toFixed(1)}% of queries. ` +
        `Raw-count baseline hit@5 ${num(base.hit5)}, recall@10 ${num(base.recall10)}; best here on hit@5 + recall@10: ${best.name}. (${q.seconds.toFixed(0)} s)`,
    ],
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { commits: { type: "string", default: "200" }, "gen-commits": { type: "string", default: "3000" }, "gen-files": { type: "string", default: "600" }, "no-generated": { type: "boolean" } },
    allowPositionals: true,
  });
  const scratch = mkdtempSync(join(tmpdir(), "lore-quality-"));
  process.env.LORE_HOME = join(scratch, "home");
  try {
    const repos: [string, string][] = [];
    const { cloneDefault } = await import("./run.ts");
    repos.push(positionals[0] ? [positionals[0], positionals[0]] : [await cloneDefault(scratch), "express"]);
    if (!values["no-generated"]) {
      const g = await generateRepo({ dir: join(scratch, "gen"), commits: Number(values["gen-commits"]), files: Number(values["gen-files"]), seed: 1 });
      repos.push([g.dir, `generated (${values["gen-commits"]} commits, ${values["gen-files"]} files, seed 1)`]);
    }
    console.log(machineLine(machine()) + "\n");
    for (const [dir, label] of repos) {
      const q = await measureQuality(dir, { commits: Number(values.commits) });
      console.log(markdownTable(qualityTable(q, label)) + "\n");
    }
  } finally {
    closeAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
