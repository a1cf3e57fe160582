/**
 * lore serve under load (issue 42 item 3): 50 clients (half SDK 1 at 2025-11-25, half SDK 2 at
 * 2026-07-28) ask a mix of questions over HTTP for a bounded time; the same questions one at a time
 * over stdio `lore mcp` and over HTTP give the unloaded latencies. Prints p50/p99, errors (must be 0)
 * and the server's memory after the warm-up and at the end. Then the faults (serve-faults.ts), each
 * injected while the clients go on asking. --write puts both tables in docs/benchmarks.md.
 *
 *   bun test/bench/serve-load.ts [REPO] [--clients 50] [--seconds 60] [--write]
 */
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cloneHono } from "../helpers/express.ts";
import { tempDir } from "../helpers/git-repo.ts";
import { answerKey, faultPhase } from "./serve-faults.ts";
import { markerAt } from "./report.ts";
import { ask, httpClient, MAIN, rssMb, startServe, type Asker, type Question, type ToolResult } from "./serve-kit.ts";
import { percentile } from "./timing.ts";

const { values, positionals } = parseArgs({
  options: { clients: { type: "string", default: "50" }, seconds: { type: "string", default: "60" }, write: { type: "boolean", default: false } },
  allowPositionals: true,
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const ROOT = join(import.meta.dir, "..", "..");
/** Often enough that the fault phase sees a failed fetch within seconds; a local fetch that finds nothing new costs little. */
const FETCH_EVERY = "3s";

/** The mix: what agents ask most, about files the history changed often (hono's by default). */
function questions(repo: string): Question[] {
  const often = spawnSync("git", ["log", "--format=", "--name-only", "-n", "400", "--", "src"], { cwd: repo, encoding: "utf8" })
    .stdout.split("\n")
    .filter((f) => f.endsWith(".ts") && !f.includes("test"));
  const count = new Map<string, number>();
  for (const f of often) count.set(f, (count.get(f) ?? 0) + 1);
  const exists = (f: string) => spawnSync("git", ["cat-file", "-e", `HEAD:${f}`], { cwd: repo }).status === 0;
  const files = [...count].sort((a, b) => b[1] - a[1]).map(([f]) => f).filter(exists).slice(0, 4);
  // A folder below src (a team asks about a part of the code; all of src is a first pass of its own).
  const dirs = files.map((f) => f.split("/").slice(0, -1).join("/"));
  const dir = dirs.find((d) => d.includes("/")) ?? dirs[0]!;
  return [
    ["lore_log", { limit: 20 }],
    ["lore_log", { paths: [dir], limit: 10 }],
    ["lore_show", { rev: "HEAD~3" }],
    ["lore_contributors", { path: dir }],
    ["lore_hotspots", {}],
    ...files.flatMap((f): Question[] => [
      ["lore_blame", { path: f }],
      ["lore_history", { path: f, limit: 10 }],
      ["lore_cochange", { paths: [f] }],
    ]),
  ];
}

/** Asks every question until each is answered whole (the first answers build the index); `into` keeps each whole answer. */
async function warm(client: Asker, mix: Question[], label: string, into?: Map<string, string>): Promise<void> {
  const t0 = Date.now();
  for (const q of mix) {
    for (;;) {
      const r = (await client.callTool({ name: q[0], arguments: q[1] })) as ToolResult;
      // A walk the deadline stopped goes on in the index: ask again.
      const stopped = r.isError && r.content[0]?.text.startsWith("GIT_STOPPED");
      if (r.isError && !stopped) throw new Error(`${label} ${q[0]} ${JSON.stringify(q[1])}: ${r.content[0]?.text}`);
      if (!stopped && !r.structuredContent?.partial) {
        into?.set(JSON.stringify(q), answerKey(r));
        break;
      }
      if (Date.now() - t0 > 600_000) throw new Error(`${label}: not warm after 10 minutes`);
    }
  }
  console.error(`${label}: warm in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** The mix asked one question at a time, `rounds` times over. */
async function sequential(client: Asker, mix: Question[], rounds: number): Promise<{ ms: number[]; errors: string[] }> {
  const ms: number[] = [];
  const errors: string[] = [];
  for (let i = 0; i < rounds; i++)
    for (const q of mix) {
      const r = await ask(client, q);
      ms.push(r.ms);
      if (r.error) errors.push(r.error);
    }
  return { ms, errors };
}

const repo = positionals[0] ? realpathSync(positionals[0]) : cloneHono();
const mix = questions(repo);
const home = tempDir("lore-serve-load-");
// lore mcp as lore setup registers it: answered by the daemon (one of its own, in its own LORE_HOME).
const stdioHome = tempDir("lore-serve-load-stdio-");
const token = spawnSync(process.execPath, [MAIN, "serve", "token", "add", "load", "--tokens", join(home, "tokens")], { encoding: "utf8" }).stdout.trim();
// Served from a bare copy of it (hard links), which the fault phase takes away for a while: REPO itself is never touched.
const source = join(home, "source.git");
spawnSync("git", ["clone", "-q", "--bare", repo, source]);
const name = repo.split("/").pop()!;
let served = await startServe(source, name, home, 0, FETCH_EVERY);
// Stopped however this script ends (a failed warm-up throws): neither the server nor the daemon outlives it.
process.once("exit", () => {
  void served.stop();
  spawnSync(process.execPath, [MAIN, "daemon", "stop"], { env: { ...process.env, LORE_HOME: stdioHome }, stdio: "ignore" });
});
const stdio = new Client1({ name: "serve-load", version: "1" });
await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, "mcp"], cwd: repo, env: { ...process.env, LORE_HOME: stdioHome } as Record<string, string>, stderr: "ignore" }));
const one = await httpClient(served.url, token, true);
const reference = new Map<string, string>();
await Promise.all([warm(one, mix, "lore serve", reference), warm(stdio, mix, "lore mcp (stdio)")]);
const memStart = rssMb(served.pid);
const loadStart = loadavg()[0]!;

// Unloaded: the same questions one at a time over each transport.
const ROUNDS = 10;
// Round by round in turn, so that the index's background work after the warm-up falls on both alike.
const overStdio = { ms: [] as number[], errors: [] as string[] };
const overHttp = { ms: [] as number[], errors: [] as string[] };
for (let i = 0; i < ROUNDS; i++)
  for (const [client, into] of [[stdio, overStdio], [one, overHttp]] as const) {
    const r = await sequential(client, mix, 1);
    into.ms.push(...r.ms);
    into.errors.push(...r.errors);
  }

// Loaded: CLIENTS clients without pause until the time is up.
const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => httpClient(served.url, token, i % 2 === 0)));
const loaded: number[] = [];
const errors: string[] = [];
const until = Date.now() + SECONDS * 1000;
await Promise.all(
  clients.map(async (c, i) => {
    for (let n = i; Date.now() < until; n++) {
      const q = mix[n % mix.length]!;
      const r = await ask(c, q);
      loaded.push(r.ms);
      if (r.error) errors.push(r.error);
      // A whole answer under load is the one asked alone: anything else is a wrong answer.
      else if (!r.result!.structuredContent?.partial && answerKey(r.result!) !== reference.get(JSON.stringify(q))) errors.push(`${q[0]}: a wrong answer`);
    }
  }),
);
const memEnd = rssMb(served.pid);

// Faults, each while the same clients go on asking.
const faults = await faultPhase({ clients, mix, reference, token, home, source, name, served, fetchEvery: FETCH_EVERY });
served = faults.served;
for (const c of [...clients, one, stdio]) await c.close().catch(() => {});

const f = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString("en-US"));
const row = (label: string, n: number, ms: number[], errs: number) => `| ${label} | ${n} | ${ms.length.toLocaleString("en-US")} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 99))} | ${errs} |`;
const repoName = repo.split("/").pop();
const table = [
  `On ${repoName} (${new Date().toISOString().slice(0, 10)}, ${mix.length} questions: log, log of a folder, show, contributors, hotspots, and blame, history and cochange of the 4 files changed most; loopback, a machine of 2 cores shared with other work, load average ${loadStart.toFixed(1)} after the warm-up, ${loadavg()[0]!.toFixed(1)} at the end):`,
  "",
  "| transport | clients | questions | p50 ms | p99 ms | errors |",
  "|---|---:|---:|---:|---:|---:|",
  row("stdio `lore mcp` and its daemon (one at a time)", 1, overStdio.ms, overStdio.errors.length),
  row("HTTP `lore serve` (one at a time)", 1, overHttp.ms, overHttp.errors.length),
  row(`HTTP \`lore serve\`, ${SECONDS} s without pause`, CLIENTS, loaded, errors.length),
  "",
  `${Math.round(loaded.length / SECONDS).toLocaleString("en-US")} questions/s under load (half the clients SDK 1 at 2025-11-25, half SDK 2 at 2026-07-28). The server's memory: ${memStart} MB after the warm-up, ${memEnd} MB at the end.`,
  "",
  faults.table,
].join("\n");
console.log(table);
if (errors.length) console.error(`errors (first 5):\n${errors.slice(0, 5).join("\n")}`);

if (values.write) {
  const doc = join(ROOT, "docs", "benchmarks.md");
  const text = readFileSync(doc, "utf8");
  const [start, end] = ["<!-- serve-load:start -->", "<!-- serve-load:end -->"];
  const block = `${start}\n${table}\n${end}`;
  const next = markerAt(text, start) >= 0
    ? text.slice(0, markerAt(text, start)) + block + text.slice(markerAt(text, end) + end.length)
    : text.replace("## Speed: `npm run bench`", `## One server for a team: \`npm run bench:serve\`\n\n\`test/bench/serve-load.ts\` (issue 42): \`lore serve\` on loopback with one token, warmed until every question answers whole; the same questions over stdio and HTTP one at a time, then ${CLIENTS} clients without pause (\`--seconds\`, default 60).\n\n${block}\n\n## Speed: \`npm run bench\``);
  writeFileSync(doc, next);
}
process.exit(errors.length + overStdio.errors.length + overHttp.errors.length + faults.failures ? 1 : 0);
