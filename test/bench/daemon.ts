/**
 * Measures the daemon on a clone of express: a warm CLI call against --no-daemon, the
 * daemon's own p50 over the socket, how soon a commit shows, a fresh clone's first
 * answer, and what lore's commit-graph does for blame. `bun test/bench/daemon.ts`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { rpcCall } from "../../src/client/rpc-client.ts";
import { tempDir } from "../helpers/git-repo.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const BUNDLE = join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");
const FILE = "lib/application.js";

const work = tempDir("lore-bench-");
const home = join(work, "h");
mkdirSync(home);
process.env.LORE_HOME = home;
const env = { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "" };

function sh(cmd: string[], cwd: string, extra: Record<string, string> = {}): string {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd, env: { ...env, ...extra }, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const rows: [string, string][] = [];
const row = (what: string, value: string) => {
  rows.push([what, value]);
  console.error(`${what}: ${value}`);
};

const repo = join(work, "express");
sh(["git", "clone", "-q", BUNDLE, repo], work);

// A fresh clone's first question: the daemon starts, answers blame while the history streams in.
const first = timed(() => sh([process.execPath, MAIN, "blame", FILE, "-L", "1,5", "--json"], repo));
row("fresh clone: first blame through the CLI (daemon spawn included)", `${first.toFixed(0)} ms`);
const socket = daemonPaths().socket;
const warmStart = performance.now();
while (!readFileSync(join(home, "daemon.log"), "utf8").includes("files blamed in")) await new Promise((r) => setTimeout(r, 100));
row("fresh clone: history, commit-graph, churn and blame of every file done after", `${((performance.now() - warmStart + first) / 1000).toFixed(1)} s`);
console.error(readFileSync(join(home, "daemon.log"), "utf8"));

const cli = (args: string[]) => Array.from({ length: 15 }, () => timed(() => sh([process.execPath, MAIN, ...args], repo)));
row("warm CLI call, blame (median of 15)", `${median(cli(["blame", FILE, "--json"])).toFixed(1)} ms`);
row("--no-daemon CLI call, blame (median of 15)", `${median(cli(["blame", FILE, "--json", "--no-daemon"])).toFixed(1)} ms`);
row("CLI process start alone, --version (median of 15)", `${median(cli(["--version"])).toFixed(1)} ms`);

for (const [name, params] of [
  ["blame", { repo, path: FILE, startLine: 1, endLine: 40 }],
  ["history", { repo, path: FILE, limit: 20 }],
  ["status", { repo }],
] as const) {
  const times: number[] = [];
  for (let i = 0; i < 1100; i++) {
    const t = performance.now();
    await rpcCall(socket, name, params);
    if (i >= 100) times.push(performance.now() - t);
  }
  row(`daemon ${name} over the socket, 1000 calls`, `p50 ${median(times).toFixed(2)} ms, p90 ${pct(times, 0.9).toFixed(2)} ms`);
}

// A commit, then the same question at once: the answer must show it.
const shows: number[] = [];
const watched: number[] = [];
for (let i = 0; i < 5; i++) {
  writeFileSync(join(repo, FILE), readFileSync(join(repo, FILE), "utf8") + `// bench ${i}\n`);
  sh(["git", "-c", "user.name=Bench", "-c", "user.email=b@e", "commit", "-qam", `bench ${i}`], repo);
  const head = sh(["git", "rev-parse", "HEAD"], repo).trim();
  let t = performance.now();
  const r = (await rpcCall(socket, "blame", { repo, path: FILE, startLine: 1, endLine: 1 })) as { rev: string };
  if (r.rev !== head) throw new Error("stale answer");
  shows.push(performance.now() - t);
  // And without a question: how soon the watcher has it indexed.
  writeFileSync(join(repo, FILE), readFileSync(join(repo, FILE), "utf8") + `// watch ${i}\n`);
  sh(["git", "-c", "user.name=Bench", "-c", "user.email=b@e", "commit", "-qam", `watch ${i}`], repo);
  const next = sh(["git", "rev-parse", "HEAD"], repo).trim();
  t = performance.now();
  while (!readFileSync(join(home, "daemon.log"), "utf8").includes(`..${next.slice(0, 12)} in`)) await new Promise((r) => setTimeout(r, 5));
  watched.push(performance.now() - t);
}
row("a commit, then blame at once: answer with the commit in (median of 5)", `${median(shows).toFixed(0)} ms`);
row("a commit, no question: indexed by the watcher after (median of 5)", `${median(watched).toFixed(0)} ms`);

// lore's commit-graph: every file at HEAD blamed by git, one at a time, without and with it.
const files = sh(["git", "ls-files", "-z"], repo).split("\0").filter(Boolean);
const graphEnv = { GIT_OBJECT_DIRECTORY: join(home, "repos", sh(["ls", join(home, "repos")], repo).trim(), "objects"), GIT_ALTERNATE_OBJECT_DIRECTORIES: join(repo, ".git", "objects") };
const blameAll = (extra: Record<string, string>) => timed(() => files.forEach((f) => sh(["git", "blame", "--porcelain", "HEAD", "--", f], repo, extra)));
const plain = blameAll({});
const withGraph = blameAll(graphEnv);
row(`git blame of all ${files.length} files, one at a time`, `${(plain / 1000).toFixed(1)} s plain, ${(withGraph / 1000).toFixed(1)} s with lore's commit-graph (${(plain / withGraph).toFixed(1)}x)`);

sh([process.execPath, MAIN, "daemon", "stop"], repo);
rmSync(work, { recursive: true, force: true });
console.log(["| measure | value |", "|---|---|", ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join("\n"));
