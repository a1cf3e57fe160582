/**
 * `npx bun test/bench/snapshot-cost.ts [bundle…]`: what a snapshot costs on the corpus repositories —
 * the first one (the private index seeded from the repository's), one after a few files changed (what
 * the PreToolUse hook pays before an edit), one when nothing changed, and the store's size on disk.
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { discoverRepo } from "../../src/git/repo.ts";
import { SnapshotStore } from "../../src/memory/store.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { generateRepo } from "./gen-repo.ts";
import { markdownTable } from "./report.ts";

const CORPUS = join(import.meta.dir, "..", "..", "..", "shared", "corpus");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A corpus bundle, or "gen:FILES" for a generated repository of that many files (vite's size: gen:3000). */
async function measure(bundle: string, runs: number): Promise<string[]> {
  const dir = tempDir("lore-snapbench-");
  process.env.LORE_HOME = join(dir, "home");
  const clone = join(dir, "repo");
  const generated = /^gen:(\d+)$/.exec(bundle);
  if (generated) await generateRepo({ dir: clone, commits: 500, files: Number(generated[1]) });
  else runGit(dir, ["clone", "-q", join(CORPUS, bundle), clone]);
  const files = runGit(clone, ["ls-files"]).split("\n").filter((f) => /\.(js|ts|md|c|py|go|rs)$/.test(f));
  const store = new SnapshotStore(await discoverRepo(clone));
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const first = await time(() => store.take("first", new Date()));
  const changed: number[] = [];
  const same: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const f of files.slice(i * 3, i * 3 + 3)) appendFileSync(join(clone, f), `\n// edit ${i}\n`);
    writeFileSync(join(clone, `scratch-${i}.txt`), "new file\n");
    changed.push(await time(() => store.take(undefined, new Date())));
    same.push(await time(() => store.take(undefined, new Date())));
  }
  const row = [generated ? `generated (${generated[1]} files, vite's size)` : bundle.replace(".bundle", ""), String(runGit(clone, ["ls-files"]).split("\n").length - 1), `${first.toFixed(0)} ms`, `${median(changed).toFixed(0)} ms`, `${median(same).toFixed(0)} ms`, `${(store.bytes() / 1024).toFixed(0)} KB`];
  rmSync(dir, { recursive: true, force: true });
  return row;
}

const bundles = process.argv.slice(2).length ? process.argv.slice(2) : ["express.bundle", "hono.bundle", "gen:3000"];
const rows: string[][] = [];
for (const b of bundles) rows.push(await measure(b, Number(process.env.RUNS) || 5));
console.log(markdownTable({ title: "Snapshot cost", head: ["repository", "files", "first snapshot", "4 files changed (median)", "nothing changed", "store after"], rows }));
