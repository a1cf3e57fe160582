/**
 * The file on disk (issue 22): blame -L of 21 lines of a 3,000-line file with a history, clean and
 * dirty, through the daemon (computed: a miss in its answer cache) and the warm CLI, beside git blame
 * of the work tree. Part of `npm run bench`; alone: `bun test/bench/disk-file.ts`.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv, chooseLore, type LoreCli } from "./lore-cli.ts";
import { machine, machineLine, markdownTable, ms, ratio, type Table } from "./report.ts";
import { respell } from "./pairs.ts";
import { latency, rpc, socketPath } from "./socket.ts";
import { alternate, mustRun, percentile, timeProcess } from "./timing.ts";

const LINES = 3000;
const FILE = "src/big.ts";
/** The same file under another name, left clean: the warm CLI asks about both in turn. */
const TWIN = "src/twin.ts";
const RANGE = [1400, 1420] as const;

/** A 3,000-line file changed by 40 commits of 3 authors, each rewriting a few runs of lines (one git fast-import). */
async function buildRepo(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await mustRun(["git", "init", "-q", "-b", "main"], { cwd: dir });
  const content = Array.from({ length: LINES }, (_, i) => `export const line${i + 1} = ${i + 1}; // first`);
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  const stream: string[] = [];
  for (let c = 0; c < 40; c++) {
    if (c > 0)
      for (let k = 0; k < 6; k++) {
        const at = rand(LINES - 20);
        for (let j = 0; j < 1 + rand(15); j++) content[at + j] = `export const line${at + j + 1} = ${c}; // commit ${c}`;
      }
    const who = ["Alice", "Bob", "Carol"][c % 3]!;
    const data = content.join("\n") + "\n";
    const message = `commit ${c}\n`;
    const when = `${1_700_000_000 + c * 3600} +0000`;
    stream.push(`commit refs/heads/main\nauthor ${who} <${who.toLowerCase()}@example.com> ${when}\ncommitter ${who} <${who.toLowerCase()}@example.com> ${when}\ndata ${Buffer.byteLength(message)}\n${message}`);
    for (const f of [FILE, TWIN]) stream.push(`M 100644 inline ${f}\ndata ${Buffer.byteLength(data)}\n${data}\n`);
    stream.push("\n");
  }
  const imported = Bun.spawnSync(["git", "fast-import", "--quiet"], { cwd: dir, stdin: Buffer.from(stream.join("")) });
  if (imported.exitCode !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
  await mustRun(["git", "reset", "-q", "--hard", "main"], { cwd: dir });
  return realpathSync(dir);
}

/** The agent's edit: lines inserted on top and in the middle, a run changed, a block deleted. */
function dirty(clean: string, n = 0): string {
  const ls = clean.split("\n");
  ls.pop();
  const out = ["// the agent's note", `// edit ${n}`, ...ls.slice(0, 700), "const inserted = true;", ...ls.slice(700, 1200).map((l, i) => (i < 30 ? l + " // changed" : l)), ...ls.slice(1240)];
  return out.join("\n") + "\n";
}

export async function diskFileTable(cli: LoreCli, env: Record<string, string>, scratch: string, runs = 15, calls = 1000): Promise<Table> {
  const repo = await buildRepo(join(scratch, "disk-file"));
  const full = join(repo, FILE);
  const clean = readFileSync(full, "utf8");
  const L = `${RANGE[0]},${RANGE[1]}`;
  // The daemon up and the file's HEAD blame cached.
  await mustRun([...cli.argv, "blame", FILE, "-L", L, "--json"], { cwd: repo, env });
  const socket = socketPath();
  const params = (i: number) => ({ repo, path: respell(FILE, i), startLine: RANGE[0], endLine: RANGE[1] });
  const rows: string[][] = [];

  const cleanDaemon = await latency(socket, "blame", params, calls, Math.min(20, calls), 20_000);
  writeFileSync(full, dirty(clean));
  const check = (await rpc(socket, "blame", params(0))) as { worktree?: boolean };
  if (check.worktree !== true) throw new Error("the dirty file was not answered from disk");
  const dirtyDaemon = await latency(socket, "blame", params, calls, Math.min(20, calls), 20_000);
  // The first question after each save: the file's stamp is new, so one git diff runs.
  const afterEdit: number[] = [];
  for (let n = 1; n <= Math.min(40, Math.ceil(calls / 4)); n++) {
    writeFileSync(full, dirty(clean, n));
    const t = performance.now();
    await rpc(socket, "blame", params(n));
    afterEdit.push(performance.now() - t);
  }
  writeFileSync(full, dirty(clean));
  await mustRun([...cli.argv, "blame", TWIN, "-L", L, "--json"], { cwd: repo, env });
  // The warm CLI on the dirty file and on its clean twin in turn, then git blame of each.
  const cliBlame = (file: string) => async () => (await timeProcess([...cli.argv, "blame", file, "-L", L, "--json"], { cwd: repo, env, discard: true })).ms;
  const gitOf = (file: string) => async () => (await timeProcess(["git", "blame", "--porcelain", "-L", L, "--", file], { cwd: repo, discard: true })).ms;
  // A smoke run (runs <= 2) takes one of each: the table's shape, not its figures.
  const smoke = runs <= 2;
  const warm = await alternate(cliBlame(FILE), cliBlame(TWIN), smoke ? 1 : runs * 2, smoke ? 0 : 2);
  const gits = await alternate(gitOf(FILE), gitOf(TWIN), smoke ? 1 : runs, smoke ? 0 : 2);
  writeFileSync(full, clean);

  rows.push(["daemon blame -L (21 lines), clean file, computed", ms(cleanDaemon.p50), "", ""]);
  rows.push(["daemon blame -L (21 lines), dirty file, computed", ms(dirtyDaemon.p50), "", ""]);
  rows.push(["daemon blame -L, first question after each save (one git diff)", ms(percentile(afterEdit, 50)), "", ""]);
  rows.push(["warm CLI blame -L, clean file", ms(warm.b.p50), ms(gits.b.p50), ratio(warm.b.p50, gits.b.p50)]);
  rows.push(["warm CLI blame -L, dirty file", ms(warm.a.p50), ms(gits.a.p50), ratio(warm.a.p50, gits.a.p50)]);
  rows.push(["warm CLI: dirty minus clean, p50", ms(warm.a.p50 - warm.b.p50), "", ""]);
  return {
    title: `The file on disk: blame -L ${L} of a ${LINES.toLocaleString("en-US")}-line file with 40 commits, clean and edited`,
    head: ["what", "lore p50", "git blame --porcelain -L (work tree) p50", "lore / git"],
    rows,
    notes: [
      `Daemon rows: ${calls} socket calls each (the path respelled so every call misses the daemon's answer cache; a dirty file's answer is never kept there); the file's HEAD blame cached.`,
      `The edit: 2 lines on top, 1 inserted at 700, 30 changed, 40 deleted; after each save: ${Math.min(40, Math.ceil(calls / 4))} saves. Warm CLI rows: ${runs * 2} runs, the dirty file and a clean twin (same content and history) in turn; git: ${runs} each. Targets (issue 22): dirty computed p50 <= 2 ms; dirty warm CLI within 2 ms of clean.`,
    ],
  };
}

if (import.meta.main) {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-disk-bench-")));
  const env = benchEnv(join(scratch, "home"));
  process.env.LORE_HOME = env.LORE_HOME;
  const cli = chooseLore(process.argv.includes("--source") ? "source" : "auto");
  try {
    const table = await diskFileTable(cli, env, scratch);
    console.log(`${machineLine(machine())}\n\n${markdownTable(table)}`);
  } finally {
    await timeProcess([...cli.argv, "daemon", "stop"], { cwd: scratch, env }).catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
  }
}
