/**
 * `npm run bench:tasks`: what whole tasks cost an agent with lore against plain git — tokens read
 * (Claude's tokenizer), calls and time — for 21 kinds of task drawn (seeded) from express and hono,
 * each with its facts checked in lore's answers against git. Prints a table per repository and
 * the geometric means; `--write-docs` puts them in docs/benchmarks.md and the README.
 *
 *   bun test/bench/tasks.ts [--per-kind 3] [--seed 24] [--repo DIR]... [--kind TEXT]... [--write-docs] [--verbose]
 * (`--kind` runs only the kinds whose name holds TEXT, for a quick look; never with --write-docs.)
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { indexFor } from "../../src/index/indexes.ts";
import { Warmup } from "../../src/daemon/background.ts";
import { FILE_KINDS } from "./tasks-file-kinds.ts";
import { REPO_KINDS } from "./tasks-repo-kinds.ts";
import { PROVENANCE_KINDS } from "./tasks-provenance-kinds.ts";
import { copyTokens, drawTasks, geomean, overFloor, runTask, textRatio, tokenRatio, valuesRatio, type TaskResult } from "./tasks-run.ts";
import { readRepo } from "./tasks-repo.ts";
import { machine, machineLine, markdownTable, ms, writeBlock, type Table } from "./report.ts";
import { ROOT } from "./lore-cli.ts";

export const KINDS = [...FILE_KINDS, ...REPO_KINDS, ...PROVENANCE_KINDS];

/** Where the corpus bundles are: $LORE_CORPUS, else ../shared/corpus beside the project or one folder up. */
function corpus(): string {
  const candidates = [process.env.LORE_CORPUS, join(ROOT, "..", "shared", "corpus"), join(ROOT, "..", "..", "shared", "corpus")].filter(Boolean) as string[];
  return resolve(candidates.find((c) => existsSync(join(c, "express.bundle"))) ?? candidates[0]!);
}

/** Indexes the repository and runs the daemon's background pass to its end: the agent asks a warm lore. */
export async function warm(dir: string): Promise<void> {
  const ix = await indexFor(dir);
  await ix.refresh();
  const w = new Warmup(ix, 2, () => {});
  w.kick();
  while (w.active) await Bun.sleep(50);
}

export interface RepoRun {
  name: string;
  results: TaskResult[];
}

export async function runRepo(name: string, dir: string, perKind: number, seed: number, log: (s: string) => void = () => {}, kinds = KINDS): Promise<RepoRun> {
  await warm(dir);
  const facts = readRepo(name, dir, seed);
  const tasks = drawTasks(facts, kinds, perKind, seed);
  const results: TaskResult[] = [];
  for (const t of tasks) {
    const r = await runTask(facts, KINDS.find((k) => k.name === t.kind)!, t);
    log(`${name} ${r.kind} ${r.what}: git ${r.git.tokens} tok / ${r.git.calls}, lore ${r.lore.tokens} tok JSON, ${r.lore.text} text, ${r.lore.values} values / ${r.lore.calls} (${tokenRatio(r).toFixed(2)}×)${r.problems.length ? ` PROBLEMS: ${r.problems.join("; ")}` : ""}`);
    results.push(r);
  }
  return { name, results };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "n/a");

/** The most a copy may cost over its values alone, per task (issue 38). */
export const FLOOR_GOAL = 1.15;

const worst = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);

export function table(run: RepoRun): Table {
  const rows = KINDS.map((k) => {
    const rs = run.results.filter((r) => r.kind === k.name);
    const ok = rs.filter((r) => r.problems.length === 0).length;
    return [
      k.name,
      String(rs.length),
      String(Math.round(mean(rs.map((r) => r.git.tokens)))),
      String(Math.round(mean(rs.map((r) => r.lore.tokens)))),
      String(Math.round(mean(rs.map((r) => r.lore.text ?? r.lore.tokens)))),
      `${x(geomean(rs.map(tokenRatio)))} / ${x(geomean(rs.map(textRatio)))}`,
      x(geomean(rs.map(valuesRatio))),
      `${x(worst(rs.map((r) => overFloor(r, "json"))))} / ${x(worst(rs.map((r) => overFloor(r, "text"))))}`,
      `${mean(rs.map((r) => r.git.calls)).toFixed(1)} / ${mean(rs.map((r) => r.lore.calls)).toFixed(1)}`,
      `${ms(mean(rs.map((r) => r.git.ms)))} / ${ms(mean(rs.map((r) => r.lore.ms)))}`,
      `${ok}/${rs.length}`,
    ];
  });
  const all = run.results;
  const kindMeans = (f: (r: TaskResult) => number) => KINDS.map((k) => geomean(all.filter((r) => r.kind === k.name).map(f))).filter(Number.isFinite);
  const total = (f: (r: TaskResult) => number) => all.reduce((s, r) => s + f(r), 0);
  // What a copy costs over the values alone: per task (geometric mean), in total, and the most on one task.
  const floor = (c: "json" | "text" | "flat") =>
    `${x(geomean(all.map((r) => overFloor(r, c))))} its values alone per task (${x(total((r) => copyTokens(r, c)) / total((r) => r.lore.values ?? r.lore.tokens))} in total, at most ${x(worst(all.map((r) => overFloor(r, c))))})`;
  const copy = (name: string, f: (r: TaskResult) => number, c: "json" | "text", tokens: (r: TaskResult) => number) =>
    `${name} ${x(geomean(all.map(f)))}, worst kind ${x(worst(kindMeans(f)))}, in total ${x(total(tokens) / total((r) => r.git.tokens))}, ${floor(c)}`;
  return {
    title: `${run.name}: ${all.length} tasks, lore's tokens / git's per task (geometric mean): ${copy("JSON", tokenRatio, "json", (r) => r.lore.tokens)}; ${copy("text", textRatio, "text", (r) => r.lore.text ?? r.lore.tokens)} (values alone ${x(geomean(all.map(valuesRatio)))} git's; the values alone as one flat JSON array, the least any JSON copy can cost: ${floor("flat")})`,
    head: ["task", "n", "git tokens", "JSON tokens", "text tokens", "lore / git (JSON / text)", "values alone / git", "most over values alone (JSON / text)", "calls git / lore", "time git / lore", "facts"],
    rows,
    align: "lrrrrrrrrrr",
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1]! : dflt;
  };
  const perKind = Number(opt("--per-kind", "3"));
  const seed = Number(opt("--seed", "24"));
  const verbose = args.includes("--verbose");
  const only = args.flatMap((a, i) => (a === "--kind" ? [args[i + 1]!] : []));
  const kinds = only.length ? KINDS.filter((k) => only.some((o) => k.name.includes(o))) : KINDS;
  if (only.length && args.includes("--write-docs")) throw new Error("--kind runs a part of the benchmark: the docs take the whole of it.");
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-tasks-")));
  process.env.LORE_HOME ??= join(scratch, "home");
  const repos: [string, string][] = [];
  args.forEach((a, i) => a === "--repo" && repos.push([basename(resolve(args[i + 1]!)), resolve(args[i + 1]!)]));
  if (repos.length === 0) {
    for (const name of ["express", "hono"]) {
      const bundle = join(corpus(), `${name}.bundle`);
      if (!existsSync(bundle)) throw new Error(`${bundle} is missing: set LORE_CORPUS to the folder with express.bundle and hono.bundle, or pass --repo DIR.`);
      const dir = join(scratch, name);
      Bun.spawnSync(["git", "clone", "-q", bundle, dir]);
      repos.push([name, dir]);
    }
  }
  const tables: string[] = [];
  try {
    for (const [name, dir] of repos) {
      const run = await runRepo(name, dir, perKind, seed, verbose ? (s) => console.error(s) : () => {}, kinds);
      const t = table(run);
      tables.push(markdownTable(t));
      console.log(markdownTable(t) + "\n");
      if (!verbose) for (const r of run.results.filter((r) => r.problems.length)) console.log(`  ${r.kind} ${r.what}: ${r.problems.join("; ")}`);
    }
    const how = `${perKind} tasks of each kind per repository, drawn with seed ${seed}; tokens are what the agent reads (git's output; lore's two copies of each answer: structuredContent as JSON, which Claude Code, Codex and VS Code read, and the text content, which Gemini CLI, opencode and Zed read), counted with @anthropic-ai/tokenizer; "values alone" counts lore's answers without their field names and JSON punctuation, a floor for any answer that says the same facts (the goal: each copy at most ${FLOOR_GOAL}× it per task; JSON cannot be: its values alone as one flat JSON array, with no field name, already cost more, since a space before a word is no token of its own and JSON's comma and quotes are); times are means per task (lore in process, warm, after its background pass). ${machineLine(machine())}.`;
    console.log(how);
    if (args.includes("--write-docs")) {
      writeBlock(join(ROOT, "docs", "benchmarks.md"), "tasks", `${tables.join("\n\n")}\n\n${how} \`npm run bench:tasks -- --write-docs\` regenerates this block.`);
      const heads = tables.map((t) => t.split("\n")[0]!.replace(/\*\*/g, ""));
      writeBlock(join(ROOT, "README.md"), "tasks", `**Whole tasks** (\`npm run bench:tasks\`: ${KINDS.length} kinds of task an agent has, each done with git alone and with lore, facts checked against git; tables in [docs/benchmarks.md](docs/benchmarks.md#the-task-benchmark)):\n\n${heads.map((h) => `- ${h}`).join("\n")}\n\nPer answer, on express (\`npm run bench\`, 2 shared cores):`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
