/**
 * What a carried index saves (issue 37): a fresh first pass (`lore index build` on an empty
 * LORE_HOME) against `lore index import` of an index exported 30 commits back (plus the blame of
 * the files those commits changed), the first answers after the import (log and blame, blame of a
 * changed file, a message search, which makes the search from the commits), and the file's size.
 * The import is timed five times (each into an empty LORE_HOME; the median counts), the fresh pass once.
 * Usage: bun test/bench/import-cost.ts [express] [hono] [generated:COMMITS:FILES] [--build | --source]
 * (dist/lore, the binary users run, built when missing; --build rebuilds it; --source runs bun src/main.ts)
 */
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { cloneExpress, cloneHono } from "../helpers/express.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { generateRepo } from "./gen-repo.ts";
import { chooseLore } from "./lore-cli.ts";

const given = process.argv.slice(2);
// The lore users run (dist/lore, built when missing; --build rebuilds it), or --source: bun src/main.ts.
const LORE = chooseLore(given.includes("--source") ? "source" : given.includes("--build") ? "build" : "auto");
/** Imports timed per repository (the median is reported). */
const IMPORTS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function lore(cwd: string, home: string, args: string[]): { ms: number; json: any } {
  const t0 = performance.now();
  const r = spawnSync(LORE.argv[0]!, [...LORE.argv.slice(1), ...args], { cwd, env: { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1" }, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`lore ${args.join(" ")} failed: ${r.stderr}`);
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {}
  return { ms, json };
}

interface Row {
  name: string;
  commits: number;
  freshS: number;
  importS: number;
  importBuildS: number;
  firstAnswerMs: number;
  changedBlameMs: number;
  firstSearchMs: number;
  indexBytes: number;
  fileBytes: number;
}

async function measure(name: string, full: string): Promise<Row> {
  const root = tempDir(`lore-imp-${name.replace(/[^a-z0-9]+/gi, "-")}-`);
  const a = join(root, "a");
  runGit(root, ["clone", "-q", "--no-local", full, a]);
  runGit(a, ["reset", "-q", "--hard", runGit(full, ["rev-list", "HEAD"]).split("\n")[30]!]);
  const file = join(root, "index.lore");
  const homeA = join(root, "home-a");
  lore(a, homeA, ["index", "build"]);
  lore(a, homeA, ["index", "export", file]);
  const indexBytes = lore(a, homeA, ["status", "--json"]).json.dbBytes;
  const fresh = lore(full, join(root, "home-fresh"), ["index", "build"]);
  // The import is short and the cores are shared: it runs IMPORTS times, each into an empty LORE_HOME, and the median counts.
  const runs = Array.from({ length: IMPORTS }, (_, i) => lore(full, join(root, `home-b${i}`), ["index", "import", file, "--json"]));
  console.error(`${name}: imports took ${runs.map((r) => Math.round(r.ms)).join(", ")} ms`);
  const homeB = join(root, "home-b0");
  const imp = { ms: median(runs.map((r) => r.ms)), json: runs[0]!.json };
  if (imp.json.newCommits < 30) throw new Error(`${name}: ${imp.json.newCommits} new commits`);
  // The first answers in a new process after the import (process start included): log, and blame of a file the index holds;
  // then blame of a file the new commits changed, which git blames as after any new commits.
  const text = (f: string) => /\.(js|ts|tsx|md|json)$/.test(f);
  const changedFiles = runGit(full, ["diff", "--name-only", imp.json.imported, "HEAD"]).split("\n").filter(text);
  const changed = changedFiles[0]!;
  // A file the new commits left alone: its blame at HEAD is the one the index carried.
  const kept = runGit(full, ["ls-files"]).split("\n").find((f) => text(f) && !changedFiles.includes(f))!;
  const first = Math.max(lore(full, homeB, ["log", "-n", "20", "--json"]).ms, lore(full, homeB, ["blame", kept, "--json"]).ms);
  const changedBlameMs = lore(full, homeB, ["blame", changed, "--json"]).ms;
  // The message search is made from the commits by the first search after an import (or the daemon's pass).
  const firstSearchMs = lore(full, homeB, ["search", "fix", "--json"]).ms;
  const build = lore(full, homeB, ["index", "build"]);
  return {
    name,
    commits: Number(runGit(full, ["rev-list", "--count", "HEAD"]).trim()),
    freshS: fresh.ms / 1000,
    importS: imp.ms / 1000,
    importBuildS: (imp.ms + build.ms) / 1000,
    firstAnswerMs: first,
    changedBlameMs,
    firstSearchMs,
    indexBytes,
    fileBytes: statSync(file).size,
  };
}

async function target(spec: string): Promise<[string, string]> {
  if (spec === "express") return ["express", cloneExpress()];
  if (spec === "hono") return ["hono", cloneHono()];
  const [, commits, files] = spec.split(":");
  const dir = join(tempDir("lore-imp-gen-"), "repo");
  await generateRepo({ dir, commits: Number(commits), files: Number(files), seed: 37 });
  return [`generated ${commits}/${files}`, dir];
}

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

const named = given.filter((a) => !a.startsWith("--"));
const specs = named.length ? named : ["express", "hono", "generated:10000:1000"];
console.log(`lore: ${LORE.label}${LORE.remarks.length ? ` (${LORE.remarks.join("; ")})` : ""}`);
console.log("| repository | commits | fresh first pass | import + 30 commits | share | + blame of changed files | share | first answer after (log, blame) | blame of a changed file | first message search | index | export file |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.error(`load average at the start: ${load()}`);
for (const spec of specs) {
  const [name, dir] = await target(spec);
  const r = await measure(name, dir);
  console.error(`load average after ${name}: ${load()}`);
  console.log(
    `| ${r.name} | ${r.commits.toLocaleString("en-US")} | ${r.freshS.toFixed(1)} s | ${r.importS.toFixed(1)} s | ${pct(r.importS, r.freshS)} | ${r.importBuildS.toFixed(1)} s | ${pct(r.importBuildS, r.freshS)} | ${Math.round(r.firstAnswerMs)} ms | ${Math.round(r.changedBlameMs)} ms | ${Math.round(r.firstSearchMs)} ms | ${mb(r.indexBytes)} | ${mb(r.fileBytes)} |`,
  );
}
