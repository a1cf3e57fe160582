/**
 * What a fresh repository costs: the first question on an empty LORE_HOME (daemon start and the
 * whole history index included), the daemon's background pass (commit-graph, blame of every
 * file, churn, change index), and the git floors they compare with.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { LOG_ARGS } from "../../src/index/history.ts";
import type { LoreCli } from "./lore-cli.ts";
import { rpc, socketPath } from "./socket.ts";
import type { Target } from "./pairs.ts";
import { alternate, median, mustRun, sleep, timeProcess, type Sampled } from "./timing.ts";

export interface ColdIndex {
  /** Wall time of `lore history FILE` on an empty LORE_HOME: daemon start, history index, answer. */
  firstQuestionMs: number;
  /** The daemon's own time for the history + tree index (its log), NaN when it did not say. */
  historyIndexMs: number;
  /** The daemon's background pass (commit-graph, blame of every file, churn, change index): its log, else wall time. */
  backgroundMs: number;
  /** The pass's parts as the daemon logged them (NaN when it did not). */
  parts: { graphMs: number; churnMs: number; blameMs: number };
  /** Where backgroundMs came from. */
  source: "daemon log" | "wall time (status polled)" | "not finished";
  filesBlamed: number;
}

const INDEXED = /indexed (?:[0-9a-f]+\.\.)?([0-9a-f]{12}) in (\d+) ms/;
/** "churn filled, N files blamed in MS ms (commit-graph A ms, churn B ms, blame C ms)", the parts optional. */
const WARMED = /(\d+) files blamed in (\d+) ms(.*)$/m;

function daemonLog(): string {
  const path = daemonPaths().log;
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

async function waitForLog(re: RegExp, from: number, timeoutMs: number): Promise<RegExpExecArray | null> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const m = re.exec(daemonLog().slice(from));
    if (m) return m;
    await sleep(50);
  }
  return null;
}

interface Progress {
  churnComplete: boolean;
  filesBlamed: number;
}

/**
 * Waits for the background pass to end: the daemon's log line (read from the file, which
 * disturbs nothing), or else `status` showing churn complete and the blamed count still for 6 s.
 */
async function waitForWarmup(from: number, repo: string, timeoutMs: number): Promise<{ log: RegExpExecArray | null; at: number; blamed: number } | null> {
  const deadline = performance.now() + timeoutMs;
  const socket = socketPath();
  let last = -1;
  let since = performance.now();
  let nextPoll = performance.now() + 2000;
  while (performance.now() < deadline) {
    const m = WARMED.exec(daemonLog().slice(from));
    if (m) return { log: m, at: performance.now(), blamed: Number(m[1]) };
    if (performance.now() >= nextPoll) {
      nextPoll = performance.now() + 2000;
      const s = (await rpc(socket, "status", { repo }).catch(() => null)) as Progress | null;
      if (s && s.filesBlamed !== last) {
        last = s.filesBlamed;
        since = performance.now();
      } else if (s?.churnComplete && last > 0 && performance.now() - since >= 6000) return { log: null, at: since, blamed: last };
    }
    await sleep(50);
  }
  return null;
}

/** Call with $LORE_HOME pointing at an empty folder (no daemon there yet). */
export async function coldIndex(cli: LoreCli, t: Target, env: Record<string, string>, timeoutMs: number): Promise<ColdIndex> {
  const from = daemonLog().length;
  const first = await timeProcess([...cli.argv, "history", t.file, "--json"], { cwd: t.repo, env });
  if (first.code !== 0) throw new Error(`the first lore question failed: ${first.stderr.trim()}`);
  const answered = performance.now();
  const indexed = await waitForLog(INDEXED, from, 5000);
  const warmed = await waitForWarmup(from, t.repo, timeoutMs);
  const part = (name: string) => Number(new RegExp(`${name} (\\d+) ms`).exec(warmed?.log?.[3] ?? "")?.[1] ?? NaN);
  return {
    firstQuestionMs: first.ms,
    historyIndexMs: indexed ? Number(indexed[2]) : NaN,
    backgroundMs: warmed ? (warmed.log ? Number(warmed.log[2]) : warmed.at - answered) : NaN,
    parts: { graphMs: part("commit-graph"), churnMs: part("churn"), blameMs: part("blame") },
    source: warmed ? (warmed.log ? "daemon log" : "wall time (status polled)") : "not finished",
    filesBlamed: warmed ? warmed.blamed : NaN,
  };
}

const BLAME_ALL = ["sh", "-c", "git ls-files -z | xargs -0 -P2 -n1 git blame --porcelain -- >/dev/null"];

async function blameAllRuns(repo: string, runs: number, prior: number[] = []): Promise<{ blameAll: number; blameAllSamples: number[] }> {
  const samples = [...prior];
  for (let i = 0; i < runs; i++) samples.push((await mustRun(BLAME_ALL, { cwd: repo, discard: true })).ms);
  return { blameAll: median(samples), blameAllSamples: samples };
}

/** One more run of the blame floor right after the background pass, so a change in the machine's load between the two shows less. */
export async function blameAllAgain(repo: string, floors: GitFloors): Promise<GitFloors> {
  return { ...floors, ...(await blameAllRuns(repo, 1, floors.blameAllSamples)) };
}

export interface GitFloors {
  logRaw: number;
  logNumstat: number;
  /** Median of the blame-of-every-file runs (more are added after the background pass: see blameAllAgain). */
  blameAll: number;
  blameAllSamples: number[];
  hasCommitGraph: boolean;
}

/** The git commands that read what the index holds, run the way a script would; median of `runs` (blame of every file: fewer). */
export async function gitFloors(repo: string, runs: number): Promise<GitFloors> {
  const o = { cwd: repo, discard: true };
  const time = async (argv: string[], n: number) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) samples.push((await mustRun(argv, o)).ms);
    return median(samples);
  };
  const graph = await timeProcess(["git", "rev-parse", "--git-path", "objects/info/commit-graph"], { cwd: repo });
  const graphPath = Buffer.from(graph.stdout).toString().trim();
  const chain = graphPath.replace(/commit-graph$/, "commit-graphs/commit-graph-chain");
  return {
    logRaw: await time(["git", ...LOG_ARGS], runs),
    logNumstat: await time(["git", "log", "--numstat", "-z", "-M", "--root", "--format=%H"], runs),
    ...(await blameAllRuns(repo, Math.max(1, Math.min(2, runs)))),
    hasCommitGraph: [graphPath, chain].some((p) => existsSync(p.startsWith("/") ? p : `${repo}/${p}`)),
  };
}

/**
 * The xargs blame floor again, with git pointed at the commit-graph lore wrote for the repository
 * (what lore's own blame runs with): how much of the background pass's speed is the graph's.
 * NaN when lore wrote none. `dbPath`: the index file (status says where); the graph is beside it.
 */
export async function blameAllWithGraph(repo: string, dbPath: string, runs: number): Promise<number> {
  const objects = join(dirname(dbPath), "objects");
  if (!existsSync(join(objects, "info"))) return NaN;
  const gitObjects = Buffer.from((await mustRun(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: repo })).stdout).toString().trim() + "/objects";
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GIT_OBJECT_DIRECTORY: objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: gitObjects };
  const samples: number[] = [];
  for (let i = 0; i < Math.max(1, Math.min(2, runs)); i++)
    samples.push((await mustRun(["sh", "-c", "git ls-files -z | xargs -0 -P2 -n1 git blame --porcelain -- >/dev/null"], { cwd: repo, env, discard: true })).ms);
  return median(samples);
}

/**
 * The history + tree index (RepoIndex.refresh, in this process, each time into an empty
 * LORE_HOME under `scratch`) in alternation with `git log --raw` of lore's flags: `runs` of each.
 */
export async function historyIndexVsLog(repo: string, scratch: string, runs: number): Promise<{ lore: Sampled; git: Sampled }> {
  const saved = process.env.LORE_HOME;
  let n = 0;
  const refresh = async () => {
    process.env.LORE_HOME = join(scratch, `refresh-${n++}`);
    try {
      const ix = await indexFor(repo);
      const t = performance.now();
      await ix.refresh();
      return performance.now() - t;
    } finally {
      closeAll();
      process.env.LORE_HOME = saved;
    }
  };
  const log = async () => (await mustRun(["git", ...LOG_ARGS], { cwd: repo, discard: true })).ms;
  const r = await alternate(refresh, log, runs, 1);
  return { lore: r.a, git: r.b };
}
