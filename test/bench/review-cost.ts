/**
 * What `lore review` costs beside the git commands an agent would otherwise run for the same
 * facts (git diff HEAD, git blame of each changed file, git show of each commit behind the
 * deleted lines): a 10-file change answered by a warm daemon, and the JSON of real five-file
 * changes. Runs in a shared clone so the repository measured elsewhere is never edited.
 * Alone: `bun test/bench/review-cost.ts [REPO]` (default: a clone of express).
 */
import { readFileSync, realpathSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytes, markdownTable, ms, ratio, type Table } from "./report.ts";
import { latency, rpc } from "./socket.ts";
import { alternate, mustRun, percentile, summarize, timeProcess, type Sampled } from "./timing.ts";

export interface ReviewCost {
  files: number;
  deleted: number;
  commits: number;
  fixes: number;
  /** The daemon's answer over the socket, blames cached (each call computed: review is never kept). */
  daemon: Sampled;
  /**
   * The same after `git update-index --refresh` in the clone. A fresh clone's index is racily
   * clean (its files are as new as it, to the second), so every git diff against the work tree
   * reads and hashes each tracked file again until some git command rewrites the index (git
   * status does); lore never writes it, so both states are measured.
   */
  refreshed: Sampled;
  /** The same, the index refreshed, each time a change of other lines of the ten files (an agent reviews a change once). */
  newChange: Sampled;
  /** `lore review --json` through the CLI and the warm daemon, process start included. */
  cli: Sampled;
  /** git diff HEAD, git blame per file, git show per commit, one after another. */
  git: Sampled;
  gitProcesses: number;
  loreBytes: number;
  gitBytes: number;
  /** JSON bytes of real five-file commits rebuilt as a branch (BASE = the parent): whole, and without the fix messages. */
  fiveFile: { commits: number; whole: number[]; withoutFixes: number[] };
}

const text = async (cwd: string, args: string[]) => Buffer.from((await mustRun(["git", ...args], { cwd })).stdout).toString("utf8");

/** The ten text files of lib/ and test/ changed most often lately, that exist now. */
async function busyFiles(repo: string, n: number): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const f of (await text(repo, ["log", "-n", "400", "--format=", "--name-only"])).split("\n")) if (f) counts.set(f, (counts.get(f) ?? 0) + 1);
  const now = new Set((await text(repo, ["ls-files"])).split("\n"));
  // Source and tests first (lockfiles and changelogs change often but say little), then any text file.
  const code = (f: string) => (/^(lib|src|test)\//.test(f) && /\.(js|ts)$/.test(f) ? 1 : 0);
  return [...counts]
    .filter(([f]) => now.has(f) && /\.(js|ts|md|txt|json)$/.test(f) && readFileSync(join(repo, f), "utf8").split("\n").length >= 10)
    .sort((a, b) => code(b[0]) - code(a[0]) || b[1] - a[1])
    .slice(0, n)
    .map(([f]) => f);
}

/** Replaces three lines of each file (at a fifth, half and four fifths of it, `shift` lines on): 3 deleted, 3 added per file. */
function edit(repo: string, files: string[], shift = 0): number {
  let deleted = 0;
  for (const f of files) {
    const lines = readFileSync(join(repo, f), "utf8").split("\n");
    for (const at of [0.2, 0.5, 0.8]) {
      const i = Math.min(lines.length - 1, Math.floor(lines.length * at) + shift);
      lines[i] = `${lines[i]} // reviewed`;
      deleted++;
    }
    writeFileSync(join(repo, f), lines.join("\n"));
  }
  return deleted;
}

async function fiveFileSizes(clone: string, socket: string, want: number): Promise<ReviewCost["fiveFile"]> {
  const whole: number[] = [];
  const withoutFixes: number[] = [];
  // One git log names every commit's files: the five-file ones, newest first.
  const log = (await text(clone, ["log", "--min-parents=1", "--max-parents=1", "-n", "5000", "--format=%x01%H", "--name-only"])).split("\x01").slice(1);
  for (const entry of log) {
    if (whole.length >= want) break;
    const [sha, ...files] = entry.trim().split("\n").filter(Boolean);
    if (files.length !== 5) continue;
    await mustRun(["git", "checkout", "-q", "--detach", sha], { cwd: clone });
    const a = (await rpc(socket, "review", { repo: clone, base: `${sha}^` })) as { fixes: Record<string, string> };
    whole.push(Buffer.byteLength(JSON.stringify(a)));
    withoutFixes.push(Buffer.byteLength(JSON.stringify({ ...a, fixes: {} })));
  }
  return { commits: whole.length, whole, withoutFixes };
}

/** `repo` is left as it was; the daemon of $LORE_HOME (started by `cliArgv` if needed) answers. */
export async function measureReview(repo: string, cliArgv: string[], env: Record<string, string>, socket: string, runs: number, scratch: string, fiveFileCommits = 20): Promise<ReviewCost> {
  const clone = join(scratch, "review-clone");
  await mustRun(["git", "clone", "-q", "--shared", repo, clone], { cwd: scratch });
  const files = await busyFiles(clone, 10);
  const deleted = edit(clone, files);
  // The first answer indexes the clone and blames the ten files; every later one is computed again from the cache.
  const first = await timeProcess([...cliArgv, "review", "--json"], { cwd: clone, env });
  if (first.code !== 0) throw new Error(`lore review failed: ${first.stderr}`);
  const answer = JSON.parse(Buffer.from(first.stdout).toString("utf8")) as { commits: Record<string, unknown>; fixes: Record<string, string>; files: unknown[] };
  const shas = Object.keys(answer.commits);
  const daemon = await latency(socket, "review", { repo: clone }, runs * 4, 3);
  let gitBytes = 0;
  const git = async () => {
    const t = performance.now();
    let n = (await mustRun(["git", "diff", "HEAD"], { cwd: clone })).bytes;
    for (const f of files) n += (await mustRun(["git", "blame", "--porcelain", "HEAD", "--", f], { cwd: clone })).bytes;
    for (const sha of shas) n += (await mustRun(["git", "show", sha], { cwd: clone })).bytes;
    gitBytes = n;
    return performance.now() - t;
  };
  const lore = async () => (await timeProcess([...cliArgv, "review", "--json"], { cwd: clone, env })).ms;
  const t = await alternate(lore, git, runs, 1);
  // Exits 1 while files differ from the index (the ten edited ones): what it rewrites is the stat data.
  await timeProcess(["git", "update-index", "-q", "--refresh"], { cwd: clone });
  const refreshed = await latency(socket, "review", { repo: clone }, runs * 4, 3);
  // An agent reviews each change once: other lines of the same files each time, so nothing of the last answer (the search for its removed lines) serves.
  const fresh: number[] = [];
  for (let k = 1; k <= runs * 2; k++) {
    await mustRun(["git", "checkout", "-q", "--", ...files], { cwd: clone });
    edit(clone, files, k);
    const t0 = performance.now();
    await rpc(socket, "review", { repo: clone });
    fresh.push(performance.now() - t0);
  }
  const newChange = summarize(fresh);
  await mustRun(["git", "checkout", "-q", "--", ...files], { cwd: clone });
  const fiveFile = await fiveFileSizes(clone, socket, fiveFileCommits);
  return { files: files.length, deleted, commits: shas.length, fixes: Object.keys(answer.fixes).length, daemon, refreshed, newChange, cli: t.a, git: t.b, gitProcesses: 1 + files.length + shas.length, loreBytes: first.bytes, gitBytes, fiveFile };
}

const within = (ok: boolean) => (ok ? "✅" : "❌");

export function reviewTable(r: ReviewCost): Table {
  const p50 = (xs: number[]) => percentile(xs, 50);
  const max = (xs: number[]) => Math.max(...xs);
  const spread = (xs: number[]) => (xs.length ? `${bytes(p50(xs))} / ${bytes(max(xs))}` : "none found");
  const under = r.fiveFile.withoutFixes.filter((n) => n <= 4096).length;
  return {
    title: "lore review: a change read against history, beside the git commands it replaces",
    head: ["measure", "lore", "git", "lore / git", "target"],
    rows: [
      [`review of a ${r.files}-file change, daemon answer (p50, computed each call)`, ms(r.daemon.p50), ms(r.git.p50), ratio(r.daemon.p50, r.git.p50), `≤ 50 ms ${within(r.daemon.p50 <= 50)}`],
      ["the same once git has refreshed the index (after a git status)", ms(r.refreshed.p50), ms(r.git.p50), ratio(r.refreshed.p50, r.git.p50), `≤ 50 ms ${within(r.refreshed.p50 <= 50)}`],
      ["a new change each time (other lines of the same files), index refreshed", ms(r.newChange.p50), ms(r.git.p50), ratio(r.newChange.p50, r.git.p50), `≤ 50 ms ${within(r.newChange.p50 <= 50)}`],
      ["the same through the CLI, process start included (p50)", ms(r.cli.p50), ms(r.git.p50), ratio(r.cli.p50, r.git.p50), ""],
      ["bytes an agent reads", bytes(r.loreBytes), bytes(r.gitBytes), ratio(r.loreBytes, r.gitBytes), ""],
      [
        `JSON of real five-file changes (${r.fiveFile.commits} commits): median / max, fix messages left out`,
        spread(r.fiveFile.withoutFixes),
        "",
        "",
        r.fiveFile.commits ? `≤ 4 KB: ${under}/${r.fiveFile.commits} ${within(under * 2 >= r.fiveFile.commits)}` : "",
      ],
      ["the same with the fix messages (which win over the budget)", spread(r.fiveFile.whole), "", "", ""],
    ],
    align: "lrrrl",
    notes: [
      `The ${r.files}-file change replaces 3 lines in each of the ${r.files} source and test files changed most in the newest 400 commits (${r.deleted} lines deleted, written by ${r.commits} commits, ${r.fixes} of them fixes). ` +
        `git is what an agent would run for the same facts, one after another: git diff HEAD, git blame --porcelain of each file, git show of each of the ${r.commits} commits (${r.gitProcesses} processes). ` +
        "The daemon recomputes every review (the work tree moves without a commit, so no answer is kept): one git diff, one git ls-files of untracked files, the old side's blames from the cache, missing ranked from the index over the changed files. " +
        "A fresh clone's index is racily clean (its files are as new as it, to the second): until a git command rewrites it (git status does; lore never writes the repository), every git diff against the work tree reads and hashes each tracked file again, hence the two daemon rows. " +
        "Five-file changes: the newest non-merge commits of exactly five files, each reviewed as a branch since its parent (the same change as the commit rebuilt as uncommitted work).",
    ],
  };
}

async function main(): Promise<void> {
  const { benchEnv, chooseLore } = await import("./lore-cli.ts");
  const { socketPath } = await import("./socket.ts");
  const { cloneDefault } = await import("./run.ts");
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-review-")));
  const home = join(scratch, "home");
  process.env.LORE_HOME = home;
  const env = benchEnv(home);
  const cli = chooseLore(process.argv.includes("--build") ? "build" : "source");
  try {
    const given = process.argv.slice(2).find((a) => !a.startsWith("--"));
    const repo = given ? realpathSync(given) : await cloneDefault(scratch);
    const r = await measureReview(repo, cli.argv, env, socketPath(), 15, scratch);
    console.log(markdownTable(reviewTable(r)));
  } finally {
    await timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env }).catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
