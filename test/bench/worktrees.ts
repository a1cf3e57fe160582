/**
 * What a linked worktree costs on a clone of express: its first question beside a main checkout
 * already indexed (the index is shared), warm questions there against the main checkout's and
 * git's, and the blames a commit in the worktree makes lore redo. `bun test/bench/worktrees.ts`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { rpcCall } from "../../src/client/rpc-client.ts";
import { tempDir } from "../helpers/git-repo.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const BUNDLE = process.env.LORE_CORPUS ? join(process.env.LORE_CORPUS, "express.bundle") : join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");
const N = 20;

const work = tempDir("lore-bench-wt-");
const home = join(work, "h");
mkdirSync(home);
process.env.LORE_HOME = home;
const env = { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "" };

function sh(cmd: string[], cwd: string): string {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  return r.stdout;
}
const timed = (fn: () => unknown) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const timedAsync = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[][] = [];

const repo = join(work, "express");
sh(["git", "clone", "-q", BUNDLE, repo], work);
const socket = daemonPaths().socket;
const first = timed(() => sh([process.execPath, MAIN, "log", "-n", "5", "--json"], repo));
// The first index of the whole history, before anything is measured.
while ((JSON.parse(sh([process.execPath, MAIN, "status", "--json"], repo)) as { indexedHead: string | null }).indexedHead === null) await Bun.sleep(100);
const files = sh(["git", "ls-files", "lib", "test"], repo)
  .split("\n")
  .filter((f) => f.endsWith(".js"))
  .filter((f) => Number(sh(["git", "cat-file", "-s", `HEAD:${f}`], repo)) > 800)
  .slice(0, N);

const wt = join(repo, ".claude", "worktrees", "feat");
sh(["git", "worktree", "add", "-q", "-b", "feat", wt], repo);
const wtFirst = timed(() => sh([process.execPath, MAIN, "log", "-n", "5", "--json"], wt));
rows.push(["first question in main checkout (daemon start + first index batch)", `${first.toFixed(0)} ms`, ""]);
rows.push(["first question in a new linked worktree, main already indexed", `${wtFirst.toFixed(0)} ms`, ""]);

/** blame -L FROM,FROM+20 of every file; a new FROM each round, so no answer comes from the answer cache. */
const blameAll = async (root: string, from = 1) => {
  const ms: number[] = [];
  for (const f of files) ms.push(await timedAsync(() => rpcCall(socket, "blame", { repo: root, path: join(root, f), startLine: from, endLine: from + 20 })));
  return ms;
};
const mainCold = await blameAll(repo);
const mainWarm = await blameAll(repo, 2);
const wtFirstBlames = await blameAll(wt);
const wtWarm = await blameAll(wt, 2);
const gitMs = files.map((f) => timed(() => sh(["git", "blame", "--porcelain", "-L", "1,21", "HEAD", "--", f], wt)));
// A commit in the worktree that changes one file: the others keep their blames.
writeFileSync(join(wt, files[0]!), readFileSync(join(wt, files[0]!), "utf8") + "\n// feat\n");
sh(["git", "-c", "user.name=B", "-c", "user.email=b@x", "commit", "-qam", "feat work"], wt);
const afterCommit = await blameAll(wt);
let logMainI = 0;
let logWtI = 0;
const nine = async (fn: () => Promise<unknown>) => {
  const ms: number[] = [];
  for (let i = 0; i < 9; i++) ms.push(await timedAsync(fn));
  return ms;
};
// Different authors each time: a repeated question would be a cached answer.
const authors = ["TJ", "Doug", "Roman", "Jonathan", "Aaron", "Chris", "Ryan", "Guillermo", "Blake"];
const logMain = await nine(() => rpcCall(socket, "log", { repo, limit: 20, author: authors[logMainI++ % 9] }));
const logWt = await nine(() => rpcCall(socket, "log", { repo: wt, limit: 20, author: authors[logWtI++ % 9] }));
const gitLog = authors.slice(0, 5).map((a) => timed(() => sh(["git", "log", "-n", "20", `--author=${a}`, "--format=%H %an %s"], wt)));
sh([process.execPath, MAIN, "daemon", "stop"], repo);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

rows.push([`blame -L 1,21, ${N} files, main checkout: first ask (blames them)`, `${sum(mainCold).toFixed(0)} ms`, ""]);
rows.push([`blame -L 2,22 p50, main checkout, blame cached`, `${median(mainWarm).toFixed(2)} ms`, `${(median(gitMs) / median(mainWarm)).toFixed(0)}x faster than git blame`]);
rows.push([`blame -L 1,21, ${N} files, linked worktree at the same commit: first ask`, `${sum(wtFirstBlames).toFixed(0)} ms`, "blames shared"]);
rows.push([`blame -L 2,22 p50, linked worktree, blame cached`, `${median(wtWarm).toFixed(2)} ms`, `${(median(gitMs) / median(wtWarm)).toFixed(0)}x faster than git blame`]);
rows.push([`blame -L 1,21, ${N} files, after a commit in the worktree changing 1 of them`, `${sum(afterCommit).toFixed(0)} ms`, `first file ${afterCommit[0]!.toFixed(0)} ms (new HEAD's scope + its blame)`]);
rows.push(["git blame --porcelain -L 1,21 p50 (process)", `${median(gitMs).toFixed(1)} ms`, ""]);
rows.push(["log -n 20 --author NAME p50, main checkout (daemon)", `${median(logMain).toFixed(2)} ms`, ""]);
rows.push(["log -n 20 --author NAME p50, linked worktree (daemon)", `${median(logWt).toFixed(2)} ms`, `git log -n 20 --author: ${median(gitLog).toFixed(1)} ms`]);
const indexes = sh(["find", join(home, "repos"), "-name", "index.db"], work).trim().split("\n").length;
rows.push(["index files for the clone and its worktree", String(indexes), ""]);

console.log("| what | lore | note |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
rmSync(work, { recursive: true, force: true });
