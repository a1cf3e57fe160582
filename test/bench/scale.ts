/**
 * `npm run bench:scale`: how lore's costs grow with history and tree size, on generated
 * repositories (default 1k, 5k and 20k commits; --big adds 100k commits and 20k files):
 * index time against the git that reads the same history, warm answers against git, index size.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { BLAME_WORKERS } from "../../src/queries/answer.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { validateInput } from "../../src/queries/define.ts";
import { findQuery } from "../../src/queries/index.ts";
import { generateRepo } from "./gen-repo.ts";
import { historyIndexVsLog } from "./index-cost.ts";
import { benchEnv, chooseLore, type LoreCli } from "./lore-cli.ts";
import { pairs, pickTarget, type Pair, type Target } from "./pairs.ts";
import { bytes, machine, machineLine, markdownTable, ms, ratio, type Table } from "./report.ts";
import { searchInProcess, type SearchRow } from "./search.ts";
import { mustRun, repeat, sleep, timeProcess } from "./timing.ts";
import { memoryTable, type MemoryRun } from "./memory.ts";
import { hugeRun, hugeTable, memoryOf, sharedClones } from "./scale-extra.ts";

const EXPRESS = join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");

export interface Size {
  commits: number;
  files: number;
}

export const DEFAULT_SIZES: Size[] = [
  { commits: 1000, files: 300 },
  { commits: 5000, files: 1000 },
  { commits: 20000, files: 3000 },
];
export const BIG_SIZES: Size[] = [{ commits: 100_000, files: 20_000 }];

/** The questions whose growth is charted, by row name prefix in pairs(). */
export const CHARTED = ["blame (", "history", "cochange", "--changed", "hotspots", "owners", "log -n 20"];

export interface ScalePoint {
  size: Size;
  generateS: number;
  logRaw: number;
  logNumstat: number;
  historyIndex: number;
  churnIndex: number;
  dbBytes: number;
  answers: { name: string; first: number; warm: number; git: number }[];
  /** Through the daemon on an empty LORE_HOME: each question's first answer, and when the whole history index was done. */
  fresh: { name: string; answerMs: number; indexedMs: number }[];
  /** Search beside git (messages, code before and after the change index, line history). */
  search: SearchRow[];
}

/** Generated repositories are kept between runs in the temp folder (generation is the slow part); `fresh` makes them anew. */
async function repoFor(size: Size, cacheDir: string, fresh: boolean): Promise<{ dir: string; seconds: number }> {
  const dir = join(cacheDir, `c${size.commits}-f${size.files}-s1`);
  if (fresh || !existsSync(join(dir, ".git", "lore-bench-done"))) {
    rmSync(dir, { recursive: true, force: true });
    const g = await generateRepo({ dir, commits: size.commits, files: size.files, seed: 1 });
    await Bun.write(join(dir, ".git", "lore-bench-done"), String(g.seconds));
    return { dir, seconds: g.seconds };
  }
  return { dir, seconds: Number(await Bun.file(join(dir, ".git", "lore-bench-done")).text()) };
}

/** The questions timed on a fresh clone, by row name prefix in pairs(). */
const FRESH = ["blame (", "history", "intent", "cochange", "hotspots"];

/**
 * Each question asked first thing on an empty LORE_HOME (daemon start included): the wall time
 * of its answer, and of the whole history index (status polled until fresh). Shows which
 * answers come before a long first index ends.
 */
export async function freshAnswers(dir: string, target: Target, cli: LoreCli): Promise<ScalePoint["fresh"]> {
  const out: ScalePoint["fresh"] = [];
  for (const p of pairs(target).filter((x: Pair) => FRESH.some((c) => x.name.startsWith(c)))) {
    const home = mkdtempSync(join(tmpdir(), "lore-fresh-"));
    const env = benchEnv(home);
    const started = performance.now();
    try {
      await mustRun([...cli.argv, ...p.lore, "--json"], { cwd: dir, env, discard: true });
      const answerMs = performance.now() - started;
      let indexedMs = NaN;
      while (performance.now() - started < 600_000) {
        const s = JSON.parse(Buffer.from((await mustRun([...cli.argv, "status", "--json"], { cwd: dir, env })).stdout).toString());
        if (s.indexedHead !== null) {
          indexedMs = performance.now() - started;
          break;
        }
        await sleep(20);
      }
      out.push({ name: p.name.replace(/ \(\d+ lines\)/, ""), answerMs, indexedMs });
    } finally {
      await timeProcess([...cli.argv, "daemon", "stop"], { cwd: dir, env });
      rmSync(home, { recursive: true, force: true });
    }
  }
  return out;
}

/** Measures one repository; $LORE_HOME must point at an empty folder. */
export async function measurePoint(dir: string, size: Size, runs: number, generateS = NaN, cli?: LoreCli): Promise<ScalePoint> {
  const o = { cwd: dir, discard: true };
  const floor = async (argv: string[]) => (await repeat(() => mustRun(argv, o), Math.max(1, Math.min(3, runs)))).p50;
  const logNumstat = await floor(["git", "log", "--numstat", "-z", "-M", "--root", "--format=%H"]);
  // Each refresh indexes into a fresh LORE_HOME of its own, alternating with git log --raw.
  const alt = await historyIndexVsLog(dir, join(process.env.LORE_HOME!, "refresh"), Math.max(1, Math.min(3, runs)));
  const ix = await indexFor(dir);
  await ix.refresh();
  let t = performance.now();
  await ix.indexChurn();
  const churnIndex = performance.now() - t;
  const ctx: QueryContext = { index: ix, clock: () => new Date(), blameWorkers: BLAME_WORKERS };
  const target = await pickTarget(dir);
  const answers: ScalePoint["answers"] = [];
  for (const p of pairs(target).filter((x: Pair) => CHARTED.some((c) => x.name.startsWith(c)))) {
    const def = findQuery(p.rpc.method)!;
    const input = validateInput(def, p.rpc.params);
    const ask = () => def.run(ctx, input as never);
    t = performance.now();
    await ask();
    const first = performance.now() - t;
    const warm = (await repeat(ask, Math.max(runs * 4, 5), 2)).p50;
    const git = (await repeat(() => p.git({ cwd: dir }), runs, 1)).p50;
    answers.push({ name: p.name.replace(/ \(\d+ lines\)/, ""), first, warm, git });
  }
  const search = await searchInProcess(dir, target, runs);
  const db = ix.store.path;
  const dbBytes = statSync(db).size + (existsSync(db + "-wal") ? statSync(db + "-wal").size : 0);
  closeAll();
  const fresh = cli ? await freshAnswers(dir, target, cli) : [];
  return { size, generateS, logRaw: alt.git.p50, logNumstat, historyIndex: alt.lore.p50, churnIndex, dbBytes, answers, fresh, search };
}

export function scaleTables(points: ScalePoint[]): Table[] {
  const label = (p: ScalePoint) => `${p.size.commits.toLocaleString("en")} commits, ${p.size.files.toLocaleString("en")} files`;
  const index: Table = {
    title: "Index cost as history grows (in-process: RepoIndex.refresh, p50 alternating with git log --raw; then indexChurn)",
    head: ["repository", "history index", "git log --raw", "lore/git", "churn index", "git log --numstat", "lore/git", "index size (no blame)"],
    rows: points.map((p) => [label(p), ms(p.historyIndex), ms(p.logRaw), ratio(p.historyIndex, p.logRaw), ms(p.churnIndex), ms(p.logNumstat), ratio(p.churnIndex, p.logNumstat), bytes(p.dbBytes)]),
  };
  const names = points[0]?.answers.map((a) => a.name) ?? [];
  const answers: Table = {
    title: "Answers as history grows: lore warm (first ask) vs git",
    head: ["repository", ...names.flatMap((n) => [`${n}: lore`, "git"])],
    rows: points.map((p) => [label(p), ...p.answers.flatMap((a) => [`${ms(a.warm)} (${ms(a.first)})`, ms(a.git)])]),
    notes: [
      "lore: the question run in-process as the daemon runs it (no CLI start-up, which adds a constant — see the main benchmark), p50 of warm calls, the first call in brackets (blame: on demand, nothing warmed). " +
        "git: the command an agent runs for the same answer (blame --porcelain of the file; log -n 20 --follow --numstat; log -n 500 --name-only + counting), p50. Generated repositories (test/bench/gen-repo.ts, seed 1), the asked file the most changed source file at HEAD.",
    ],
  };
  const search: Table = {
    title: "Search as history grows: lore in-process (p50) vs git",
    head: ["repository", "question", "lore", "git", "lore/git", "target", "git side"],
    align: "llrrrll",
    rows: points.flatMap((p) => p.search.map((r) => [label(p), r.name, ms(r.lore), Number.isFinite(r.git) ? ms(r.git) : "", Number.isFinite(r.git) ? ratio(r.lore, r.git) : "", r.target, r.gitLabel])),
    notes: ["test/bench/search.ts: each question with --until HEAD, as the daemon computes it (no CLI start-up); the change index pass in the same process, against git log -p."],
  };
  const freshNames = points.find((p) => p.fresh.length)?.fresh.map((f) => f.name) ?? [];
  if (freshNames.length === 0) return [index, answers, search];
  const fresh: Table = {
    title: "First answer on a fresh clone: each question asked first on an empty LORE_HOME, through the daemon",
    head: ["repository", ...freshNames, "whole history indexed"],
    rows: points.map((p) => [label(p), ...p.fresh.map((f) => ms(f.answerMs)), ms(Math.max(...p.fresh.map((f) => f.indexedMs)))]),
    notes: [
      "Wall time from starting the CLI (daemon start included) to the answer; the last column is the slowest time to a whole history index seen across those runs (status polled). " +
        "While the first index streams in newest first, blame, intent and history ask git for what is not indexed yet (history: one git log --follow), and cochange and hotspots answer as soon as the commits indexed so far settle their window (cochange: the newest 200 commits of the file; hotspots: the newest 500 commits).",
    ],
  };
  return [index, answers, search, fresh];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      big: { type: "boolean" },
      sizes: { type: "string" },
      runs: { type: "string", default: "5" },
      fresh: { type: "boolean" },
      source: { type: "boolean" },
      memory: { type: "boolean" },
      "memory-only": { type: "boolean" },
      repos: { type: "string" },
      huge: { type: "boolean" },
      "huge-size": { type: "string", default: "1000000x20000" },
      "timeout-min": { type: "string", default: "120" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "usage: npm run bench:scale -- [--big] [--sizes 1000x300,5000x1000] [--runs 5] [--fresh] [--source]\n  --big adds 100,000 commits × 20,000 files (generation alone takes many minutes)\n  --source runs bun src/main.ts for the fresh-clone answers instead of dist/lore\n  --memory adds the daemon's memory through each first index (and express's, from the corpus); --memory-only measures only that (and --repos)\n  --repos N adds N repositories (shared clones of express, or of the first size) opened at once\n  --huge only: a 1,000,000-commit history (git fast-import; --huge-size 20000x3000 for a smaller check), not in CI\n  --timeout-min M how long a background pass may run before it is reported unfinished (default 120)",
    );
    return;
  }
  const sizes = values.sizes
    ? values.sizes.split(",").map((s) => {
        const [c, f] = s.split("x").map(Number);
        return { commits: c!, files: f ?? Math.max(50, Math.round(c! / 5)) };
      })
    : [...DEFAULT_SIZES, ...(values.big ? BIG_SIZES : [])];
  const cacheDir = join(tmpdir(), "lore-bench-repos");
  mkdirSync(cacheDir, { recursive: true });
  const cli = chooseLore(values.source ? "source" : "auto");
  const timeoutMs = Number(values["timeout-min"]) * 60_000;
  if (values.huge) {
    const [c, f] = values["huge-size"]!.split("x").map(Number);
    const size = { commits: c!, files: f! };
    const { dir, seconds } = await repoFor(size, cacheDir, values.fresh === true);
    process.stderr.write(`huge: ${size.commits} commits, ${size.files} files, generated in ${Math.round(seconds)} s (${dir})\n`);
    const h = await hugeRun(`${size.commits.toLocaleString("en")} commits, ${size.files.toLocaleString("en")} files (generated in ${Math.round(seconds)} s)`, dir, cli, timeoutMs, (l) => process.stderr.write(l + "\n"));
    console.log(`${machineLine(machine())}\n`);
    console.log(markdownTable(hugeTable(h)) + "\n");
    console.log(markdownTable(memoryTable([h.memory])) + "\n");
    return;
  }
  const points: ScalePoint[] = [];
  for (const size of values["memory-only"] ? [] : sizes) {
    const { dir, seconds } = await repoFor(size, cacheDir, values.fresh === true);
    const home = mkdtempSync(join(tmpdir(), "lore-scale-home-"));
    process.env.LORE_HOME = home;
    try {
      process.stderr.write(`scale: ${size.commits} commits, ${size.files} files (${dir})\n`);
      points.push(await measurePoint(dir, size, Number(values.runs), seconds, cli));
    } finally {
      closeAll();
      rmSync(home, { recursive: true, force: true });
    }
  }
  const memory: MemoryRun[] = [];
  if (values.memory || values["memory-only"]) {
    if (existsSync(EXPRESS)) {
      const dir = mkdtempSync(join(tmpdir(), "lore-mem-express-"));
      await mustRun(["git", "clone", "-q", EXPRESS, join(dir, "express")], { cwd: dir });
      process.stderr.write("scale: memory through the first index of express\n");
      memory.push(await memoryOf("express", cli, [join(dir, "express")], timeoutMs));
      rmSync(dir, { recursive: true, force: true });
    }
    for (const size of sizes) {
      const { dir } = await repoFor(size, cacheDir, false);
      process.stderr.write(`scale: memory through the first index of ${size.commits} commits\n`);
      memory.push(await memoryOf(`${size.commits.toLocaleString("en")} commits, ${size.files.toLocaleString("en")} files`, cli, [dir], timeoutMs));
    }
  }
  if (values.repos) {
    const n = Number(values.repos);
    const scratch = mkdtempSync(join(tmpdir(), "lore-many-src-"));
    const source = existsSync(EXPRESS) ? join(scratch, "express") : (await repoFor(sizes[0]!, cacheDir, false)).dir;
    if (existsSync(EXPRESS)) await mustRun(["git", "clone", "-q", EXPRESS, source], { cwd: scratch });
    const clones = await sharedClones(source, n);
    process.stderr.write(`scale: memory with ${n} repositories open at once\n`);
    memory.push(await memoryOf(`${n} repositories at once (${existsSync(EXPRESS) ? "express" : "generated"} clones)`, cli, clones, timeoutMs));
    for (const d of [scratch, join(clones[0]!, "..")]) rmSync(d, { recursive: true, force: true });
  }
  console.log(`${machineLine(machine())}\n`);
  if (points.length) for (const t of scaleTables(points)) console.log(markdownTable(t) + "\n");
  if (memory.length) console.log(markdownTable(memoryTable(memory)) + "\n");
}

if (import.meta.main) await main();
