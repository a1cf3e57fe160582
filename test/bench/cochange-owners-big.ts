/**
 * `npx bun test/bench/cochange-owners-big.ts [--commits 100000] [--files 20000]`: issue 13's speed at
 * scale — computed p50 of cochange (the busiest file, three busy files) and owners of the root, in this
 * process (the daemon's computed time less its transport), on a generated history. owners' first
 * answer blames every file, through lore's commit-graph as the daemon's pass does (tens of minutes at
 * 20,000 files: --no-owners skips it). Not in CI.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { answer } from "../../src/queries/answer.ts";
import { refreshCommitGraph } from "../../src/daemon/commit-graph.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { generateRepo } from "./gen-repo.ts";
import { runGit } from "../helpers/git-repo.ts";

const { values } = parseArgs({ options: { commits: { type: "string", default: "100000" }, files: { type: "string", default: "20000" }, runs: { type: "string", default: "30" }, "no-owners": { type: "boolean" } } });
const commits = Number(values.commits);
const files = Number(values.files);
const runs = Number(values.runs);
const dir = join(tmpdir(), "lore-bench-scale", `c${commits}-f${files}-s1`);
const t0 = performance.now();
if (!existsSync(join(dir, ".git", "lore-bench-done"))) {
  mkdirSync(join(tmpdir(), "lore-bench-scale"), { recursive: true });
  await generateRepo({ dir, commits, files });
  writeFileSync(join(dir, ".git", "lore-bench-done"), "");
}
const generated = performance.now() - t0;
process.env.LORE_HOME = join(dir + "-home");
const ask = (name: string, args: Record<string, unknown>) => answer(name, { repo: dir, ...args }, { cwd: dir });
const busiest = runGit(dir, ["log", "-n", "3000", "--format=", "--name-only"])
  .split("\n")
  .filter(Boolean)
  .reduce((m, f) => m.set(f, (m.get(f) ?? 0) + 1), new Map<string, number>());
const top = [...busiest].sort((a, b) => b[1] - a[1]).map(([f]) => f).filter((f) => existsSync(join(dir, f))).slice(0, 3);

async function p50(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const t1 = performance.now();
await ask("log", { limit: 1 }); // the whole history index
const indexed = performance.now() - t1;
await ask("cochange", { paths: [top[0]] });
const rows: [string, string][] = [
  ["repository", `generated, ${commits} commits, ${files} files (made in ${(generated / 1000).toFixed(0)} s; history indexed in ${(indexed / 1000).toFixed(1)} s)`],
  [`cochange ${top[0]} (p50 of ${runs})`, `${(await p50(() => ask("cochange", { paths: [top[0]] }))).toFixed(2)} ms`],
  [`cochange of 3 busy files (what --changed asks after git status)`, `${(await p50(() => ask("cochange", { paths: top }))).toFixed(2)} ms`],
];
// Each row as soon as it is measured: owners' first answer can take an hour at 20,000 files.
console.log("| what | measured |\n|---|---|\n" + rows.map(([a, b]) => `| ${a} | ${b} |`).join("\n"));
rows.length = 0;
if (values["no-owners"]) process.exit(0);
// As the daemon's background pass does first: lore's commit-graph with changed-path Bloom filters, which blame reads.
const tg = performance.now();
await refreshCommitGraph(await indexFor(dir));
console.log(`| commit-graph written (lore's folder) | ${((performance.now() - tg) / 1000).toFixed(1)} s |`);
const t2 = performance.now();
await ask("owners", {});
const first = performance.now() - t2;
rows.push([`owners of the root, first answer (blames every file)`, `${(first / 1000).toFixed(0)} s`]);
rows.push([`owners of the root, computed (p50 of ${runs})`, `${(await p50(() => ask("owners", {}))).toFixed(2)} ms`]);
console.log(rows.map(([a, b]) => `| ${a} | ${b} |`).join("\n"));
