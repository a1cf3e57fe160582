/**
 * A shallow clone whose history stops at an imported index's head: the index gives the history the
 * clone lacks, and every answer equals git's in a full clone of the same commits. A generated
 * history with merges and renames across the boundary, and express.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { exportedExpress, indexedClone } from "../helpers/corpus-index.ts";
import { ask, cli } from "../helpers/lore.ts";
import { thirtyMore } from "../helpers/thirty-more.ts";

const root = tempDir("lore-shallow-import-");
afterAll(() => process.env.KEEP_SCRATCH || rmSync(root, { recursive: true, force: true }));

interface Pair {
  /** A full clone: git's answers. */
  full: string;
  /** A shallow clone of it whose boundary is the index's head, with the index imported. */
  shallow: string;
  home: string;
  files: string[];
}

/** Exports the index of `base` (built in its own LORE_HOME): the file and the commit it was exported at. */
function exportIndex(name: string, base: string): { file: string; head: string } {
  const file = join(root, `${name}.lore`);
  const exp = cli(base, ["index", "export", file], { LORE_HOME: join(root, `${name}-home-a`) });
  if (exp.code !== 0) throw new Error(exp.stderr);
  return { file, head: runGit(base, ["rev-parse", "HEAD"]).trim() };
}

/** Clones `full` shallow down to the exported index's head, and imports the index there. */
function carry(name: string, { file, head }: { file: string; head: string }, full: string): Pair {
  // The boundary is base's head: the clone leaves out what its parents reach.
  for (const [i, p] of runGit(full, ["rev-parse", `${head}^@`]).trim().split("\n").entries()) runGit(full, ["tag", `below-${i}`, p]);
  const tags = runGit(full, ["tag", "--list", "below-*"]).trim().split("\n");
  const shallow = join(root, `${name}-shallow`);
  runGit(root, ["clone", "-q", ...tags.map((t) => `--shallow-exclude=${t}`), `file://${full}`, shallow]);
  expect(readFileSync(join(shallow, ".git", "shallow"), "utf8").trim().split("\n")).toEqual([head]);
  const home = join(root, `${name}-home-b`);
  const imp = cli(shallow, ["index", "import", file], { LORE_HOME: home });
  if (imp.code !== 0) throw new Error(imp.stderr);
  const files = runGit(full, ["ls-files"]).trim().split("\n");
  return { full, shallow, home, files };
}

function lines(dir: string, path: string): string[] {
  const out: string[] = [];
  for (const l of runGit(dir, ["blame", "--porcelain", "--", path]).split("\n")) {
    const m = /^([0-9a-f]{40}) \d+ \d+/.exec(l);
    if (m) out.push(m[1]!.slice(0, 12));
  }
  return out;
}

function loreLines(answer: any): string[] {
  const out: string[] = [];
  for (const [a, b, sha] of answer.hunks) for (let i = a; i <= b; i++) out.push(sha);
  return out;
}

const gitShas = (dir: string, args: string[]) => runGit(dir, ["log", "--format=%h", "--abbrev=12", ...args]).split("\n").filter(Boolean);

/** The checks every pair must pass: the shallow clone answers as git does in the full one. */
function checks(name: string, pair: () => Pair, sample: () => string[]) {
  describe(`${name}: a shallow clone that stops at the imported index's head`, () => {
    test("blame follows every line below the boundary into the index: git blame of the full clone", async () => {
      process.env.LORE_HOME = pair().home;
      for (const path of sample()) {
        const r = await ask("blame", pair().shallow, { path });
        expect(r.historyStops).toBeUndefined();
        expect(loreLines(r)).toEqual(lines(pair().full, path));
      }
    });

    test("history and log go on below the boundary: git log of the full clone", async () => {
      process.env.LORE_HOME = pair().home;
      for (const path of sample()) {
        const h = await ask("history", pair().shallow, { path, limit: 1000 });
        expect(h.historyStops).toBeUndefined();
        expect(h.commits.map((c: any) => c.sha)).toEqual(gitShas(pair().full, ["--follow", "-M", "--", path]));
        const l = await ask("log", pair().shallow, { paths: [path], limit: 200 });
        expect(l.commits.map((c: any) => c.sha)).toEqual(gitShas(pair().full, ["-n", "200", "--", path]));
      }
      const all = await ask("log", pair().shallow, { limit: 100 });
      expect(all.historyStops).toBeUndefined();
      expect(all.commits.map((c: any) => c.sha)).toEqual(gitShas(pair().full, ["-n", "100"]));
    });

    test("each commit's pr, release and agent in log are the full clone's: the imported history's releases are kept", async () => {
      const prov = (a: any) => a.commits.map((c: any) => [c.sha, c.pr, c.release, c.agent]);
      process.env.LORE_HOME = pair().home;
      const here = prov(await ask("log", pair().shallow, { limit: 100 }));
      process.env.LORE_HOME = join(root, `${name}-home-full`);
      expect(here).toEqual(prov(await ask("log", pair().full, { limit: 100 })));
    });

    test("intent names the commits git blame of the full clone names, with no line before history", async () => {
      process.env.LORE_HOME = pair().home;
      for (const path of sample()) {
        const n = lines(pair().full, path).length;
        if (n === 0) continue;
        const r = await ask("intent", pair().shallow, { path, startLine: 1, endLine: Math.min(n, 40) });
        expect(r.beforeHistory).toBeUndefined();
        expect(r.historyStops).toBeUndefined();
        expect(new Set(r.commits.map((c: any) => c.sha))).toEqual(new Set(lines(pair().full, path).slice(0, 40)));
      }
    });

    test("code search finds the commits below the boundary, oldest first as git log -S --reverse", async () => {
      process.env.LORE_HOME = pair().home;
      const path = sample()[0]!;
      const word = readFileSync(join(pair().full, path), "utf8").match(/[A-Za-z_]{6,}/)![0];
      const r = await ask("search", pair().shallow, { query: word, code: true, oldest: true, limit: 50 });
      expect(r.historyStops).toBeUndefined();
      expect(r.results.map((c: any) => c.sha)).toEqual(gitShas(pair().full, ["-S", word, "--reverse"]).slice(0, 50));
    });

    test("contributors, owners, cochange and hotspots count the whole history, as in the full clone", async () => {
      process.env.LORE_HOME = pair().home;
      const here = { contributors: await ask("contributors", pair().shallow), owners: await ask("owners", pair().shallow), hot: await ask("hotspots", pair().shallow, { limit: 20 }) };
      process.env.LORE_HOME = join(root, `${name}-home-full`);
      const there = { contributors: await ask("contributors", pair().full), owners: await ask("owners", pair().full), hot: await ask("hotspots", pair().full, { limit: 20 }) };
      const strip = (a: any) => JSON.parse(JSON.stringify(a, (k, v) => (k === "repo" || k === "continue" ? undefined : v)));
      expect(strip(here)).toEqual(strip(there));
      for (const path of sample()) {
        process.env.LORE_HOME = pair().home;
        const mine = await ask("cochange", pair().shallow, { paths: [path] });
        process.env.LORE_HOME = join(root, `${name}-home-full`);
        expect(strip(mine)).toEqual(strip(await ask("cochange", pair().full, { paths: [path] })));
      }
    });
  });
}

let gen: Pair;
let genSample: string[] = [];
beforeAll(async () => {
  const base = join(root, "gen-a");
  await generateRepo({ dir: base, commits: 300, files: 40, seed: 5, mergeEvery: 6 });
  // A release below the boundary: the shallow clone lacks its tag, the imported index knows it.
  runGit(base, ["tag", "v0.1.0", "HEAD~40"]);
  const full = join(root, "gen-full");
  runGit(root, ["clone", "-q", "--no-local", base, full]);
  const repo = new TestRepo(full, false);
  repo.git("config", "user.name", "Test Committer");
  repo.git("config", "user.email", "committer@example.com");
  const files = runGit(full, ["ls-files"]).split("\n").filter((f) => f.endsWith(".ts"));
  thirtyMore(repo, files);
  gen = carry("gen", exportIndex("gen", base), full);
  genSample = [files[0]!, files[3]!, files[4]!, `${files[20]!}.moved`, files[25]!];
}, 300_000);

checks("a generated history", () => gen, () => genSample);

let express: Pair;
const expressSample = ["lib/response.js", "lib/router/index.js", "History.md", "package.json"].slice(0, 3);
if (hasExpress) {
  beforeAll(async () => {
    // The full clone answers as git's reference: its own first index is made once and shared too.
    const full = await indexedClone("express", join(root, "express-full"), join(root, "express-home-full"));
    // Express's newest 30 commits sit on one line of history: every one of them has its parents among them or at the base.
    // Its whole index exported there is made once and shared with the other tests that import it (a minute of CPU).
    const exported = await exportedExpress(30);
    expect(exported.head).toBe(runGit(full, ["rev-parse", "HEAD~30"]).trim());
    express = carry("express", exported, full);
  }, 300_000);
  checks("express", () => express, () => expressSample.filter((p) => express.files.includes(p)));
}

describe("a shallow clone with a line of history the index does not reach", () => {
  test("answers go on below the boundary where the index holds it, and name the boundary commits whose parents neither has", async () => {
    // Depth 10: the side branch reaches below the index's head, the main line stops 17 commits above it.
    const shallow = join(root, "gap-shallow");
    runGit(root, ["clone", "-q", "--depth", "10", `file://${gen.full}`, shallow]);
    const home = join(root, "gap-home");
    const imp = cli(shallow, ["index", "import", join(root, "gen.lore")], { LORE_HOME: home });
    expect(imp.code).toBe(0);
    process.env.LORE_HOME = home;
    const here = new Set([...gitShas(shallow, []), ...gitShas(join(root, "gen-a"), [])]);
    const log = await ask("log", shallow, { limit: 2000 });
    expect(log.commits.map((c: any) => c.sha)).toEqual(gitShas(gen.full, []).filter((s) => here.has(s)));
    // Named: the clone's boundary commits whose parents are in neither the clone nor the index.
    const stuck = readFileSync(join(shallow, ".git", "shallow"), "utf8").trim().split("\n").filter((b) => runGit(gen.full, ["rev-parse", `${b}^@`]).trim().split("\n").some((p) => !here.has(p.slice(0, 12))));
    expect(stuck.length).toBeGreaterThan(0);
    expect(Object.keys(log.historyStops.at).sort()).toEqual(stuck.map((s) => s.slice(0, 12)).sort());
  });

  test("an index that meets none of a shallow clone's history is refused, the index left as it was", () => {
    const shallow = join(root, "far-shallow");
    runGit(root, ["clone", "-q", "--depth", "3", `file://${gen.full}`, shallow]);
    const imp = cli(shallow, ["index", "import", join(root, "gen.lore"), "--json"], { LORE_HOME: join(root, "far-home") });
    expect(imp.code).toBe(1);
    expect(imp.json.error.code).toBe("INDEX_FOREIGN");
    expect(imp.stderr).toContain("older than the clone's oldest commit");
  });
});

describe("a shallow clone of a branch forked before the imported index's head", () => {
  test("imports it and catches up the branch's own commits (log, churn, code search), though the clone lacks the index's head", async () => {
    // The branch an agent works on, forked from the default branch 5 commits before the index was exported.
    const origin = join(root, "fork-origin");
    runGit(root, ["clone", "-q", "--no-local", gen.full, origin]);
    const head = runGit(join(root, "gen-a"), ["rev-parse", "HEAD"]).trim();
    const repo = new TestRepo(origin, false);
    repo.git("config", "user.name", "Test Committer");
    repo.git("config", "user.email", "committer@example.com");
    repo.git("checkout", "-q", "-b", "fork", `${head}~5`);
    repo.write("fork.txt", "zanzibarquux\n").commit("fork 1");
    repo.write("fork.txt", "zanzibarquux\nsecond\n").commit("fork 2");
    const shallow = join(root, "fork-shallow");
    runGit(root, ["clone", "-q", "--depth", "8", "--branch", "fork", `file://${origin}`, shallow]);
    expect(() => runGit(shallow, ["cat-file", "-e", head])).toThrow();
    const home = join(root, "fork-home");
    const imp = cli(shallow, ["index", "import", join(root, "gen.lore")], { LORE_HOME: home });
    expect(imp.stderr).not.toContain("BAD_REVISION");
    expect(imp.code).toBe(0);
    process.env.LORE_HOME = home;
    const log = await ask("log", shallow, { limit: 2000 });
    expect(log.historyStops).toBeUndefined();
    expect(log.commits.map((c: any) => c.sha)).toEqual(gitShas(origin, ["fork"]));
    expect(log.commits[0].additions).toBe(1);
    const found = await ask("search", shallow, { query: "zanzibarquux", code: true });
    expect(found.results.map((c: any) => c.sha)).toEqual(gitShas(origin, ["-S", "zanzibarquux", "fork"]));
  });
});
