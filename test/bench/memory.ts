/**
 * The daemon's memory through a first index, sampled from /proc: resident size at each stage
 * (first answer, history indexed, background pass done) and the peak (VmHWM); and with many
 * repositories open at once.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loreStatus, type LoreCli } from "./lore-cli.ts";
import { bytes, ms, type Table } from "./report.ts";
import { mustRun, sleep } from "./timing.ts";

export interface MemoryStage {
  stage: string;
  atMs: number;
  rssKiB: number;
}

export interface MemoryRun {
  label: string;
  stages: MemoryStage[];
  /** VmHWM at the end: the most the daemon ever held resident. */
  peakKiB: number;
  /** Index file and its WAL at the end. */
  dbBytes: number;
  /** Wall time of the first question (daemon start included), in the first repository. */
  firstAnswerMs: number;
}

function procKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}


function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** Counts the daemon's "files blamed" log lines (one per finished background pass). */
function passesDone(home: string): number {
  const path = join(home, "daemon.log");
  return existsSync(path) ? (readFileSync(path, "utf8").match(/files blamed in \d+ ms|a partial clone:/g) ?? []).length : 0;
}

/**
 * Asks `firstArgs` in each repository on the daemon of `env.LORE_HOME` (empty, no daemon yet),
 * then samples its memory until every repository's history is indexed and its background pass is over.
 */
export async function daemonMemory(label: string, cli: LoreCli, repos: string[], firstArgs: string[], env: Record<string, string>, timeoutMs = 30 * 60_000): Promise<MemoryRun> {
  const home = env.LORE_HOME!;
  const started = performance.now();
  const stages: MemoryStage[] = [];
  let firstAnswerMs = NaN;
  for (const repo of repos) {
    await mustRun([...cli.argv, ...firstArgs], { cwd: repo, env, discard: true });
    if (Number.isNaN(firstAnswerMs)) firstAnswerMs = performance.now() - started;
  }
  const first = await loreStatus(cli, repos[0]!, env);
  const pid = first.daemon!.pid;
  const mark = (stage: string) => stages.push({ stage, atMs: performance.now() - started, rssKiB: procKiB(pid, "VmRSS") });
  mark(repos.length > 1 ? `first answer in each of ${repos.length}` : "first answer");
  let indexed = false;
  const deadline = performance.now() + timeoutMs;
  let peakRss = 0;
  while (performance.now() < deadline) {
    peakRss = Math.max(peakRss, procKiB(pid, "VmRSS") || 0);
    if (!indexed) {
      const all = await Promise.all(repos.map((r) => loreStatus(cli, r, env)));
      if (all.every((s) => s.indexedHead !== null)) {
        indexed = true;
        mark("history indexed");
      }
    } else if (passesDone(home) >= repos.length) {
      mark("background pass done");
      break;
    }
    await sleep(250);
  }
  await sleep(1000);
  mark("idle after it");
  const dbBytes = (await Promise.all(repos.map((r) => loreStatus(cli, r, env)))).reduce((n, s) => n + fileBytes(s.dbPath) + fileBytes(s.dbPath + "-wal"), 0);
  return { label, stages, peakKiB: Math.max(procKiB(pid, "VmHWM"), peakRss), dbBytes, firstAnswerMs };
}

export function memoryTable(runs: MemoryRun[]): Table {
  const mib = (kib: number) => (Number.isFinite(kib) ? `${(kib / 1024).toFixed(0)} MiB` : "n/a");
  return {
    title: "The daemon's memory through a first index (resident size at each stage; peak = VmHWM)",
    head: ["repository", "stage", "at", "resident", "peak so far", "index on disk"],
    align: "llrrrr",
    rows: runs.flatMap((r) => r.stages.map((s, i) => [i === 0 ? r.label : "", s.stage, ms(s.atMs), mib(s.rssKiB), i === r.stages.length - 1 ? mib(r.peakKiB) : "", i === r.stages.length - 1 ? bytes(r.dbBytes) : ""])),
    notes: ["Targets: peak ≤ 200 MB with one repository (express; 100,000 commits × 20,000 files), ≤ 300 MB with ten open at once. Sampled every 250 ms from /proc/PID/status of the daemon."],
  };
}
