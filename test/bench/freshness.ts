/** How soon a new commit shows in answers: by the daemon's watcher alone, and at the next question asked right after committing. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonPaths } from "../../src/client/socket-path.ts";
import type { LoreCli } from "./lore-cli.ts";
import { mustRun, sleep, summarize, timeProcess, type Sampled } from "./timing.ts";

export interface Freshness {
  /** Commit done → the daemon logged the new head indexed, nobody asking. */
  watcher: Sampled;
  /** Rounds where the watcher did not index the commit within 10 s. */
  watcherMissed: number;
  /** `lore history FILE -n 1` run right after the commit (it waits for the update). */
  nextQuestion: Sampled;
  /** Every next question named the new commit. */
  allSeen: boolean;
}

const FILE = "lore-bench-fresh.txt";
const IDENTITY = ["-c", "user.name=Lore Bench", "-c", "user.email=bench@lore.example", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"];

function logText(): string {
  const path = daemonPaths().log;
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

async function commit(repo: string, round: number): Promise<{ sha: string; done: number }> {
  writeFileSync(join(repo, FILE), `bench round ${round} ${Date.now()}\n`);
  await mustRun(["git", "add", "--", FILE], { cwd: repo });
  await mustRun(["git", ...IDENTITY, "commit", "-q", "--no-verify", "-m", `bench: freshness round ${round}`], { cwd: repo });
  const done = performance.now();
  const sha = Buffer.from((await mustRun(["git", "rev-parse", "HEAD"], { cwd: repo })).stdout).toString().trim();
  return { sha, done };
}

/** Commits into `repo` (a clone the benchmark owns), `rounds` times for each way of noticing. */
export async function freshness(cli: LoreCli, repo: string, env: Record<string, string>, rounds: number): Promise<Freshness> {
  const watcher: number[] = [];
  const next: number[] = [];
  let allSeen = true;
  let missed = 0;
  for (let i = 0; i < rounds; i++) {
    const from = logText().length;
    const c = await commit(repo, 2 * i);
    const re = new RegExp(`indexed (?:[0-9a-f]+\\.\\.)?${c.sha.slice(0, 12)} in \\d+ ms`);
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline && !re.test(logText().slice(from))) await sleep(2);
    if (re.test(logText().slice(from))) watcher.push(performance.now() - c.done);
    else missed++;
    await sleep(200);

    const d = await commit(repo, 2 * i + 1);
    const q = await timeProcess([...cli.argv, "history", FILE, "-n", "1", "--json"], { cwd: repo, env });
    const seen = q.code === 0 && (JSON.parse(Buffer.from(q.stdout).toString()) as { commits: { sha: string }[] }).commits[0]?.sha === d.sha;
    allSeen &&= seen;
    next.push(q.ms);
    await sleep(200);
  }
  return { watcher: summarize(watcher), watcherMissed: missed, nextQuestion: summarize(next), allSeen };
}
