/**
 * `npm run bench -- [repo] [--write-docs]`: lore beside the git commands it replaces on one
 * repository (default: express from the corpus bundle) — warm CLI answers, the daemon's own
 * answer time and throughput, index and background costs, answer sizes, freshness, co-change quality.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { closeAll } from "../../src/index/indexes.ts";
import { answerSizes, CORPUS, sizeTable, toolTable, type SizeRow } from "./answer-size.ts";
import { benchTables, type Measured } from "./bench-tables.ts";
import { measureQuality } from "./cochange-quality.ts";
import { freshness } from "./freshness.ts";
import { measureReport, reportTable } from "./report-speed.ts";
import { duringPass, duringPassTable, type DuringPass } from "./during-pass.ts";
import { diskFileTable } from "./disk-file.ts";
import { blameAllAgain, blameAllWithGraph, coldIndex, gitFloors, historyIndexVsLog } from "./index-cost.ts";
import { benchEnv, chooseLore, ROOT, type LoreCli } from "./lore-cli.ts";
import { pairs, pickTarget, type Pair, type Target } from "./pairs.ts";
import { machine, markdownTable, writeReadmeBlock, type Table } from "./report.ts";
import { latency, rpc, socketPath, throughput } from "./socket.ts";
import { searchThroughDaemon } from "./search.ts";
import { measureReview, reviewTable } from "./review-cost.ts";
import { alternate, mustRun, timeProcess, type RunOptions } from "./timing.ts";

export interface BenchOptions {
  /** The repository; default: a clone of the express bundle in a temporary folder. */
  repo?: string;
  file?: string;
  runs: number;
  warmups: number;
  /** Runs of the questions whose git side takes seconds (contributors). */
  heavyRuns: number;
  /** Socket calls per question for the daemon's answer time. */
  calls: number;
  clients: number[];
  throughputMs: number;
  freshRounds: number;
  /** Most samples of each question while a first background pass runs (as many again after it). */
  duringSamples: number;
  /** Held-out commits for co-change quality; 0 skips it. */
  qualityCommits: number;
  /** Which lore runs: a mode of chooseLore, or one given (the tests' binary). */
  lore: "auto" | "build" | "source" | LoreCli;
  backgroundTimeoutMs: number;
  log: (line: string) => void;
}

export const DEFAULTS: BenchOptions = {
  runs: 15,
  warmups: 2,
  heavyRuns: 5,
  calls: 1000,
  clients: [4, 8],
  throughputMs: 3000,
  freshRounds: 3,
  duringSamples: 30,
  qualityCommits: 200,
  lore: "auto",
  backgroundTimeoutMs: 15 * 60_000,
  log: (line) => process.stderr.write(line + "\n"),
};

export const BUNDLE = join(CORPUS, "express.bundle");

/** Clones the express bundle into `dir`/express. */
export async function cloneDefault(dir: string): Promise<string> {
  if (!existsSync(BUNDLE)) throw new Error(`no repository given and ${BUNDLE} is missing; pass a repository path`);
  const dest = join(dir, "express");
  await mustRun(["git", "clone", "-q", BUNDLE, dest], { cwd: dir });
  return realpathSync(dest);
}

async function timePair(p: Pair, argv: string[], repo: string, env: Record<string, string>, o: BenchOptions): Promise<Measured["cli"][number]> {
  let loreBytes = 0;
  let gitBytes = 0;
  const lore = async () => {
    const r = await timeProcess([...argv, ...p.lore, "--json"], { cwd: repo, env });
    if (r.code !== 0) throw new Error(`lore ${p.lore.join(" ")} failed: ${r.stderr.trim()}`);
    loreBytes = r.bytes;
    return r.ms;
  };
  const gitOpts: RunOptions = { cwd: repo };
  const git = async () => {
    const t = performance.now();
    gitBytes = await p.git(gitOpts);
    return performance.now() - t;
  };
  const runs = p.heavy ? Math.min(o.runs, o.heavyRuns) : o.runs;
  const warm = p.heavy ? Math.min(1, o.warmups) : o.warmups;
  const t = await alternate(lore, git, runs, warm);
  return { pair: p, lore: t.a, git: t.b, runs, warmups: warm, loreBytes, gitBytes };
}

function vmHwmKiB(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

export interface BenchResult {
  tables: Table[];
  markdown: string;
}

export async function runBench(opts: Partial<BenchOptions> = {}): Promise<BenchResult> {
  const o = { ...DEFAULTS, ...opts };
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-bench-")));
  const home = join(scratch, "home");
  const savedHome = process.env.LORE_HOME;
  process.env.LORE_HOME = home;
  const env = benchEnv(home);
  const cli = typeof o.lore === "string" ? chooseLore(o.lore) : o.lore;
  let daemonUp = false;
  try {
    const own = !o.repo;
    const repo = o.repo ? realpathSync(o.repo) : await cloneDefault(scratch);
    const target = await pickTarget(repo, o.file);
    const count = async (args: string[]) => Buffer.from((await mustRun(["git", ...args], { cwd: repo })).stdout).toString().trim();
    const repoInfo = { label: own ? "express (corpus bundle)" : repo, commits: Number(await count(["rev-list", "--count", "HEAD"])), files: (await count(["ls-files"])).split("\n").length, head: (await count(["rev-parse", "HEAD"])).slice(0, 12) };
    o.log(`bench: ${repoInfo.label}, ${repoInfo.commits} commits, ${repoInfo.files} files; asking about ${target.file} (${target.lines} lines); lore = ${cli.label}`);

    o.log("bench: git floors (git log --raw, --numstat, blame of every file)");
    let floors = await gitFloors(repo, 3);
    o.log("bench: history index in this process against git log --raw, alternating");
    const historyIndex = await historyIndexVsLog(repo, scratch, Math.min(o.runs, 5));
    o.log("bench: first question on an empty LORE_HOME, then the background pass");
    daemonUp = true;
    const cold = await coldIndex(cli, target, env, o.backgroundTimeoutMs);
    floors = await blameAllAgain(repo, floors);
    const { dbPath } = (await rpc(socketPath(), "status", { repo })) as { dbPath: string };
    const blameWithGraph = await blameAllWithGraph(repo, dbPath, 3);

    const times: Measured["cli"] = [];
    const all = pairs(target);
    for (const p of all) {
      o.log(`bench: warm CLI vs git: ${p.name}`);
      times.push(await timePair(p, cli.argv, repo, env, o));
    }
    const startup = await alternate(
      async () => (await timeProcess([...cli.argv, "--version"], { cwd: repo, env })).ms,
      async () => (await timeProcess(["git", "--version"], { cwd: repo })).ms,
      o.runs,
      o.warmups,
    );
    const socket = socketPath();
    const ping = await latency(socket, "ping", {}, o.calls, Math.min(20, o.calls));
    const daemon: Measured["daemon"] = [];
    for (const p of all) {
      o.log(`bench: daemon answer time: ${p.name}`);
      const repeated = await latency(socket, p.rpc.method, p.rpc.params, o.calls, Math.min(20, o.calls), 15_000);
      const computed = await latency(socket, p.rpc.method, p.uncached, o.calls, Math.min(20, o.calls), p.heavy ? 15_000 : 30_000);
      daemon.push({ pair: p, repeated, computed });
    }
    const load: Measured["throughput"] = [];
    for (const clients of o.clients) {
      o.log(`bench: throughput, ${clients} clients`);
      load.push({ clients, method: all[0]!.name, cached: false, ...(await throughput(socket, all[0]!.rpc.method, all[0]!.uncached, clients, o.throughputMs)) });
      load.push({ clients, method: all[0]!.name, cached: true, ...(await throughput(socket, all[0]!.rpc.method, all[0]!.rpc.params, clients, o.throughputMs)) });
    }
    const most = Math.max(...o.clients);
    const transport = { clients: most, method: "ping", cached: false, ...(await throughput(socket, "ping", {}, most, o.throughputMs)) };
    o.log("bench: search (messages, code before and after the change index, line history)");
    const search = await searchThroughDaemon(repo, target, cli.argv, env, socket, dbPath, o.runs);
    o.log("bench: the file on disk (blame -L of a dirty 3,000-line file, daemon and warm CLI)");
    const disk = await diskFileTable(cli, env, scratch, o.runs, o.calls);
    o.log("bench: review of a 10-file change (in a shared clone) and the JSON of real five-file changes");
    const review = await measureReview(repo, cli.argv, env, socket, o.runs, scratch, o.runs >= 10 ? 20 : 2);
    const status = (await rpc(socket, "status", { repo })) as { daemon: { pid: number } | null; dbBytes: number; filesTotal: number; filesBlamed: number };
    const peakKiB = status.daemon ? vmHwmKiB(status.daemon.pid) : NaN;
    o.log("bench: answer sizes in bytes and tokens (and hono's, beside express; after the peak memory is read)");
    const sizes: SizeRow[] = await answerSizes(own ? "express" : "this repository", target, (method, params) => rpc(socket, method, params));
    const sizeFiles: Record<string, string> = { [own ? "express" : "this repository"]: `${target.file} (${target.lines} lines)` };
    let hono: Target | undefined;
    if (own && existsSync(join(CORPUS, "hono.bundle"))) {
      await mustRun(["git", "clone", "-q", join(CORPUS, "hono.bundle"), "hono"], { cwd: scratch });
      hono = await pickTarget(realpathSync(join(scratch, "hono")));
      sizeFiles.hono = `${hono.file} (${hono.lines} lines)`;
      sizes.push(...(await answerSizes("hono", hono, (method, params) => rpc(socket, method, params))));
    }

    let freshRepo = repo;
    if (!own) {
      freshRepo = join(scratch, "fresh");
      await mustRun(["git", "clone", "-q", "--shared", repo, freshRepo], { cwd: scratch });
      await timeProcess([...cli.argv, "status", "--json"], { cwd: freshRepo, env });
    }
    o.log(`bench: freshness (${o.freshRounds} commits each way${own ? "" : ", in a shared clone"})`);
    const fresh = o.freshRounds > 0 ? await freshness(cli, freshRepo, env, o.freshRounds) : undefined;

    o.log("bench: lore report (written warm, drawn in headless Chromium)");
    const report = await measureReport(cli, repo, env, scratch, Math.min(o.runs, 5), Math.min(o.warmups, 1));

    await timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env });
    daemonUp = false;
    const during: { label: string; d: DuringPass }[] = [];
    for (const [label, t] of [[repoInfo.label, target], ["hono (corpus bundle)", hono]] as const) {
      if (!t) continue;
      o.log(`bench: questions during a first background pass vs after it (${label}; a daemon of its own)`);
      const duringEnv = benchEnv(join(scratch, `home-during-${during.length}`));
      during.push({ label, d: await duringPass(cli, t, duringEnv, o.duringSamples).finally(() => timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env: duringEnv })) });
    }
    let quality;
    if (o.qualityCommits > 0) {
      o.log(`bench: co-change quality on ${o.qualityCommits} held-out commits`);
      quality = await measureQuality(repo, { commits: o.qualityCommits });
      closeAll();
    }
    const measured: Measured = { machine: machine(), repo: repoInfo, target, lore: cli.label, loreRemarks: cli.remarks, floors, historyIndex, cold, blameWithGraph, cli: times, startup: { lore: startup.a, git: startup.b }, ping, daemon, throughput: load, transport, peakKiB, dbBytes: status.dbBytes, fresh, freshShared: !own, quality };
    const tables = [...benchTables(measured, o), disk, search, reviewTable(review), reportTable(report, cli.label), sizeTable(sizes, sizeFiles), toolTable(), duringPassTable(during)];
    const stamp = `Measured by \`npm run bench -- --write-docs\` (test/bench/run.ts) on ${measured.machine.date}; regenerate rather than edit.`;
    return { tables, markdown: [stamp, ...tables.map(markdownTable)].join("\n\n") };
  } finally {
    if (daemonUp) await timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env }).catch(() => {});
    closeAll();
    if (savedHome === undefined) delete process.env.LORE_HOME;
    else process.env.LORE_HOME = savedHome;
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      "write-docs": { type: "boolean" },
      // The older name, from when the figures lived in the README.
      "write-readme": { type: "boolean" },
      runs: { type: "string" },
      warmups: { type: "string" },
      calls: { type: "string" },
      file: { type: "string" },
      build: { type: "boolean" },
      source: { type: "boolean" },
      "quality-commits": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log("usage: npm run bench -- [REPO] [--write-docs] [--runs 15] [--warmups 2] [--calls 1000] [--file PATH] [--build | --source] [--quality-commits 200]");
    return;
  }
  const n = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const result = await runBench({
    repo: positionals[0],
    file: values.file,
    runs: n(values.runs, DEFAULTS.runs),
    warmups: n(values.warmups, DEFAULTS.warmups),
    calls: n(values.calls, DEFAULTS.calls),
    qualityCommits: n(values["quality-commits"], DEFAULTS.qualityCommits),
    lore: values.source ? "source" : values.build ? "build" : "auto",
  });
  console.log(result.markdown);
  if (values["write-docs"] || values["write-readme"]) {
    writeReadmeBlock(join(ROOT, "docs/benchmarks.md"), result.markdown);
    console.error("bench: wrote the results into docs/benchmarks.md");
  }
}

if (import.meta.main) await main();
