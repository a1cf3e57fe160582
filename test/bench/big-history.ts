/**
 * `npx bun test/bench/big-history.ts [--commits 100000] [--files 20000]`: the questions of issues 11–13
 * on a long generated history, not in CI. First in this process (the daemon's computed time less its
 * transport): cochange and owners of the root — owners' first answer blames every file through lore's
 * commit-graph, as the daemon's pass does (tens of minutes at 20,000 files; --no-owners skips it and
 * what follows). Then through a daemon on the same LORE_HOME once its background pass is over: each
 * question's computed time, and the warm CLI beside the git command it replaces.
 * The LORE_HOME is kept beside the repository, so a second run reuses the blames.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { answer } from "../../src/queries/answer.ts";
import { refreshCommitGraph } from "../../src/daemon/commit-graph.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { generateRepo } from "./gen-repo.ts";
import { deadlineRows } from "./deadline.ts";
import { runGit } from "../helpers/git-repo.ts";
import { benchEnv, chooseLore, loreStatus, passOver } from "./lore-cli.ts";
import { pairs, pickTarget } from "./pairs.ts";
import { passSteps } from "./scale-extra.ts";
import { markdownTable, ms, ratio } from "./report.ts";
import { readMeta, searchThroughDaemon } from "./search.ts";
import { latency, rpc, socketPath } from "./socket.ts";
import { alternate, mustRun, repeat, sleep, timeProcess } from "./timing.ts";

const { values } = parseArgs({
  options: {
    commits: { type: "string", default: "100000" },
    files: { type: "string", default: "20000" },
    runs: { type: "string", default: "15" },
    "no-owners": { type: "boolean" },
    "timeout-min": { type: "string", default: "60" },
    // Only the questions with a deadline (issue 26): first partial answer and whole one, beside git.
    "deadline-only": { type: "boolean" },
  },
});
const commits = Number(values.commits);
const files = Number(values.files);
const runs = Number(values.runs);
const dir = join(tmpdir(), "lore-bench-scale", `c${commits}-f${files}-s1`);
const home = dir + "-home";
const t0 = performance.now();
if (!existsSync(join(dir, ".git", "lore-bench-done"))) {
  mkdirSync(join(tmpdir(), "lore-bench-scale"), { recursive: true });
  await generateRepo({ dir, commits, files });
  writeFileSync(join(dir, ".git", "lore-bench-done"), "");
}
const generated = performance.now() - t0;
if (values["deadline-only"]) {
  console.log(`**${commits.toLocaleString("en")} commits, ${files.toLocaleString("en")} files**, questions with a deadline\n`);
  for (const row of await deadlineRows(dir)) console.log(row);
  process.exit(0);
}
process.env.LORE_HOME = home;
const say = (line: string) => console.log(line);
const ask = (name: string, args: Record<string, unknown>) => answer(name, { repo: dir, ...args }, { cwd: dir });
const busiest = runGit(dir, ["log", "-n", "3000", "--format=", "--name-only"])
  .split("\n")
  .filter(Boolean)
  .reduce((m, f) => m.set(f, (m.get(f) ?? 0) + 1), new Map<string, number>());
const top = [...busiest].sort((a, b) => b[1] - a[1]).map(([f]) => f).filter((f) => existsSync(join(dir, f))).slice(0, 3);

const p50 = async (fn: () => Promise<unknown>) => (await repeat(fn, 30)).p50;

// Each row as soon as it is measured: owners' first answer can take half an hour.
const t1 = performance.now();
await ask("log", { limit: 1 }); // the whole history index
const indexed = performance.now() - t1;
await ask("cochange", { paths: [top[0]] });
say(`**${commits.toLocaleString("en")} commits, ${files.toLocaleString("en")} files** (generated${generated > 1000 ? ` in ${(generated / 1000).toFixed(0)} s` : " earlier"}; history indexed in ${(indexed / 1000).toFixed(1)} s)\n`);
say("| in this process | measured | target |\n|---|---:|---|");
say(`| cochange ${top[0]} (p50 of 30) | ${ms(await p50(() => ask("cochange", { paths: [top[0]] })))} | ≤ 20 ms |`);
say(`| cochange of 3 busy files (what --changed asks after git status) | ${ms(await p50(() => ask("cochange", { paths: top })))} | ≤ 20 ms |`);
if (values["no-owners"]) process.exit(0);
// As the daemon's background pass does first: lore's commit-graph with changed-path Bloom filters, which blame reads.
const tg = performance.now();
await refreshCommitGraph(await indexFor(dir));
say(`| commit-graph (lore's folder; a new layer if one is there) | ${ms(performance.now() - tg)} | |`);
const t2 = performance.now();
await ask("owners", {});
say(`| owners of the root, first answer (blames every file not blamed yet) | ${((performance.now() - t2) / 1000).toFixed(0)} s | |`);
say(`| owners of the root, computed (p50 of 30) | ${ms(await p50(() => ask("owners", {})))} | ≤ 20 ms |`);
closeAll();

// Through a daemon on the same LORE_HOME: its pass fills what is left (line counts, the change index).
const cli = chooseLore("auto");
const env = benchEnv(home);
const socket = socketPath();
const target = await pickTarget(dir);
const logPath = join(home, "daemon.log");
const deadline = performance.now() + Number(values["timeout-min"]) * 60_000;
// Done when every file is blamed, the line counts are in, and the change index has reached the head (a daemon already up may have done it all).
const passDone = async () => {
  const s = await loreStatus(cli, dir, env);
  return passOver(s) && readMeta(s.dbPath, "codeHead") === s.indexedHead;
};
let done = await passDone();
while (!done && performance.now() < deadline) {
  await sleep(1000);
  done = await passDone();
}
// The steps as this LORE_HOME's daemons logged them (a run that found them done reads an earlier one's).
const daemonLog = readFileSync(logPath, "utf8");
const steps = passSteps(daemonLog);
const codeBytes = [...daemonLog.matchAll(/change index filled in \d+ ms \((\d+) bytes\)/g)].at(-1)?.[1];
const logP = steps.codeMs !== undefined ? (await mustRun(["git", "log", "-p", "--format=%H"], { cwd: dir, discard: true })).ms : NaN;
say(
  `\nThe daemon's pass over what was left: ${done ? "done" : "NOT done"}; line counts ${steps.churnMs !== undefined ? ms(steps.churnMs) : "—"}; ` +
    `change index ${steps.codeMs !== undefined ? `${ms(steps.codeMs)} (${(Number(codeBytes) / 1024 / 1024).toFixed(1)} MiB) against git log -p ${ms(logP)}, ${ratio(steps.codeMs, logP)}` : "—"}.\n`,
);
try {
  const wanted = ["blame -L", "history -n 20", "cochange", "--changed", "owners", "log -n 20", "show HEAD~1", "compare HEAD~10"];
  say("| question | daemon computed p50 | warm CLI p50 | git p50 | CLI/git | git side |\n|---|---:|---:|---:|---:|---|");
  for (const p of pairs(target).filter((x) => wanted.some((w) => x.name.startsWith(w)))) {
    const computed = await latency(socket, p.rpc.method, p.uncached, 200, 10, 20_000);
    if (p.heavy) {
      // Its git side blames every file (tens of minutes here): the CLI alone.
      const cliMs = (await repeat(() => timeProcess([...cli.argv, ...p.lore, "--json"], { cwd: dir, env }), runs, 2)).p50;
      say(`| ${p.name} | ${ms(computed.p50)} | ${ms(cliMs)} | | | ${p.gitLabel} (not run: tens of minutes) |`);
      continue;
    }
    const t = await alternate(
      async () => (await timeProcess([...cli.argv, ...p.lore, "--json"], { cwd: dir, env })).ms,
      async () => {
        const s = performance.now();
        await p.git({ cwd: dir });
        return performance.now() - s;
      },
      runs,
      2,
    );
    say(`| ${p.name} | ${ms(computed.p50)} | ${ms(t.a.p50)} | ${ms(t.b.p50)} | ${ratio(t.a.p50, t.b.p50)} | ${p.gitLabel} |`);
  }
  const { dbPath } = (await rpc(socket, "status", { repo: dir })) as { dbPath: string };
  say("\n" + markdownTable(await searchThroughDaemon(dir, target, cli.argv, env, socket, dbPath, Math.min(runs, 3), false)));
} finally {
  await timeProcess([...cli.argv, "daemon", "stop"], { cwd: dir, env });
}
