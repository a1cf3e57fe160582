/**
 * `npm run bench:floor`: where a warm CLI answer's time goes, on a clone of express. Interleaved
 * runs of a compiled Bun binary that only prints a line, the same plus one HTTP request on the
 * daemon's socket, `lore --version`, `lore log -n 20 --json` and `git log --numstat -n 20`: what
 * no Bun client can go below, beside what lore takes and what git takes.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { CORPUS } from "./answer-size.ts";
import { benchEnv, chooseLore, loreStatus, passOver } from "./lore-cli.ts";
import { machine, machineLine, markdownTable, ms, ratio } from "./report.ts";
import { mustRun, percentile, timeProcess } from "./timing.ts";

const RUNS = 80;

async function compile(dir: string, name: string, source: string): Promise<string> {
  writeFileSync(join(dir, `${name}.ts`), source);
  await mustRun([process.execPath, "build", "--compile", "--bytecode", "--minify", "--format=esm", join(dir, `${name}.ts`), "--outfile", join(dir, name)], { cwd: dir });
  return join(dir, name);
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-floor-")));
const cli = chooseLore("auto");
const env = benchEnv(join(scratch, "home"));
try {
  await mustRun(["git", "clone", "-q", join(CORPUS, "express.bundle"), "express"], { cwd: scratch });
  const repo = join(scratch, "express");
  process.env.LORE_HOME = env.LORE_HOME;
  const socket = daemonPaths().socket;
  const hello = await compile(scratch, "hello", 'console.log("hi");\n');
  const request = await compile(scratch, "request", `const r = await fetch("http://localhost/health", { unix: ${JSON.stringify(socket)} } as RequestInit);\nconsole.log(r.status, (await r.text()).length);\n`);
  // The daemon up, its first pass over (the questions below are answered from a warm index).
  await mustRun([...cli.argv, "log", "-n", "1", "--json"], { cwd: repo, env, discard: true });
  for (let i = 0; i < 600; i++) {
    if (passOver(await loreStatus(cli, repo, env))) break;
    await Bun.sleep(500);
  }
  const rows: [string, string[], Record<string, string> | undefined][] = [
    ["a compiled Bun binary that prints a line", [hello], undefined],
    ["the same, plus one HTTP request on the daemon's socket", [request], undefined],
    ["lore --version", [...cli.argv, "--version"], env],
    ["lore log -n 20 --json", [...cli.argv, "log", "-n", "20", "--json"], env],
    ["lore log -n 20 (text)", [...cli.argv, "log", "-n", "20"], env],
    ["git log --numstat -n 20", ["git", "log", "--numstat", "-n", "20"], undefined],
  ];
  const samples = rows.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) for (const [k, [, argv, e]] of rows.entries()) samples[k]!.push((await timeProcess(argv, { cwd: repo, env: e })).ms);
  const git = percentile(samples.at(-1)!, 50);
  console.log(`${machineLine(machine())}\n`);
  console.log(
    markdownTable({
      title: "Where a warm CLI answer's time goes (express, interleaved)",
      head: ["process", "p50", "p25", "of git's p50"],
      rows: rows.map(([name], k) => [name, ms(percentile(samples[k]!, 50)), ms(percentile(samples[k]!, 25)), ratio(percentile(samples[k]!, 50), git)]),
      notes: [`${RUNS} runs of each, one after another in turn, the daemon warm; output thrown away. The first two rows are what any Bun client costs before it does anything of lore's.`],
    }),
  );
} finally {
  await timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env });
  rmSync(scratch, { recursive: true, force: true });
}
