/**
 * Soak: 8 clients ask the daemon questions for 60 s without pause; prints queries/s,
 * p50/p99, errors (must be 0) and the daemon's memory at start and end (must stay flat).
 *
 *   bun test/bench/soak.ts [REPO] [--clients 8] [--seconds 60]
 *
 * Not a timed test: a script whose exit status says whether the daemon held up.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { rpcCall } from "../../src/client/rpc-client.ts";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { ensureDaemon } from "../../src/client/spawn.ts";

const { values, positionals } = parseArgs({ options: { clients: { type: "string", default: "8" }, seconds: { type: "string", default: "60" } }, allowPositionals: true });
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const BUNDLE = join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function repoUnderTest(): string {
  if (positionals[0]) return realpathSync(positionals[0]);
  const dir = join(mkdtempSync(join(tmpdir(), "lore-soak-")), "express");
  git(tmpdir(), ["clone", "-q", BUNDLE, dir]);
  return dir;
}

function rssKb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const repo = repoUnderTest();
process.env.LORE_HOME ??= mkdtempSync(join(tmpdir(), "lore-soak-home-"));
const paths = daemonPaths();
await ensureDaemon(paths);
const files = git(repo, ["ls-files"]).split("\n").filter((f) => /\.(js|md|json)$/.test(f));
const lines = new Map(files.map((f) => [f, Math.max(1, readFileSync(join(repo, f), "utf8").split("\n").length - 1)]));

/** A mix of what agents ask, chosen round-robin so every client covers every question. */
function question(i: number): [string, Record<string, unknown>] {
  const path = files[i % files.length]!;
  const n = lines.get(path)!;
  const start = 1 + (i % n);
  const end = Math.min(n, start + 20);
  const qs: [string, Record<string, unknown>][] = [
    ["blame", { path, startLine: start, endLine: end }],
    ["history", { path, limit: 20 }],
    ["intent", { path, startLine: start, endLine: end }],
    ["cochange", { paths: [path], limit: 10 }],
    ["hotspots", { limit: 10 }],
    ["status", {}],
  ];
  const [name, params] = qs[i % qs.length]!;
  return [name, { ...params, repo }];
}

// Warm up with one pass over every file and question: the soak measures the steady state, not the first blames.
const cycle = files.length * 6;
for (let i = 0; i < cycle; i += 8) await Promise.all(Array.from({ length: 8 }, (_, k) => rpcCall(paths.socket, ...question(i + k))));
const pid = Number((await rpcCall(paths.socket, "status", { repo }) as { daemon: { pid: number } }).daemon.pid);
const startMem = rssKb(pid);
const latencies: number[] = [];
let errors = 0;
const firstErrors: string[] = [];
const deadline = performance.now() + SECONDS * 1000;

async function client(k: number): Promise<void> {
  for (let i = k; performance.now() < deadline; i += CLIENTS) {
    const t = performance.now();
    try {
      await rpcCall(paths.socket, ...question(i));
    } catch (err) {
      errors++;
      if (firstErrors.length < 5) firstErrors.push(String(err));
    }
    latencies.push(performance.now() - t);
  }
}

const began = performance.now();
// Memory at each quarter: caches (SQLite pages, answers) fill to their bounds early; a leak keeps climbing.
const quarters: number[] = [];
const sampler = setInterval(() => quarters.push(rssKb(pid).rss), (SECONDS * 1000) / 4);
await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
clearInterval(sampler);
const elapsed = (performance.now() - began) / 1000;
const endMem = rssKb(pid);
latencies.sort((a, b) => a - b);
const growth = (endMem.rss - startMem.rss) / startMem.rss;
const mid = quarters[1] ?? startMem.rss;
const lateGrowth = (endMem.rss - mid) / mid;

console.log(`soak: ${CLIENTS} clients × ${SECONDS} s on ${repo}`);
console.log(`| queries | queries/s | p50 ms | p99 ms | errors | daemon RSS start | at 1/4, 1/2, 3/4 | end | growth | growth over the second half | peak (VmHWM) |`);
console.log(`|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`);
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
console.log(
  `| ${latencies.length} | ${(latencies.length / elapsed).toFixed(0)} | ${percentile(latencies, 50).toFixed(2)} | ${percentile(latencies, 99).toFixed(2)} | ${errors} | ${mb(startMem.rss)} | ${quarters.slice(0, 3).map(mb).join(", ")} | ${mb(endMem.rss)} | ${(growth * 100).toFixed(1)}% | ${(lateGrowth * 100).toFixed(1)}% | ${mb(endMem.hwm)} |`,
);
for (const e of firstErrors) console.log(`error: ${e}`);
// Flat memory: caches fill to their bounds in the first half; the second half must not keep climbing.
const ok = errors === 0 && lateGrowth < 0.1;
console.log(ok ? "soak: ok" : "soak: FAILED");
spawnSync(process.execPath, [join(import.meta.dir, "..", "..", "src", "main.ts"), "daemon", "stop"], { stdio: "ignore", env: process.env });
process.exit(ok ? 0 : 1);
