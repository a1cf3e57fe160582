/**
 * The comparisons with git on a generated history dense in what breaks indexes: renames,
 * merges of side branches, deletions, binary files and nested folders (test/bench/gen-repo.ts,
 * a fixed seed). Every question on a sample of files, at HEAD and at an older commit.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { gitBlame, gitCochange, gitCommitFiles, gitFiles, gitLogFile, historyAsLog, hunksToLines, asLore, short } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { gitFileChanges } from "../../src/queries/run/follow.ts";
import type { QueryContext } from "../../src/queries/context.ts";

let dir = "";
let files: string[] = [];
/** Every seventh file at HEAD. */
let sample: string[] = [];

beforeAll(async () => {
  isolateHome();
  dir = join(tempDir(), "generated");
  await generateRepo({ dir, commits: 1500, files: 250, seed: 7 });
  files = gitFiles(dir);
  sample = files.filter((_, i) => i % 7 === 0);
}, 120_000);

describe("a generated history of 1,500 commits", () => {
  test("it holds what the comparisons are for: renames, merges and binary files", () => {
    const log = runGit(dir, ["log", "-M", "--name-status", "--format=%P"]);
    expect(log.split("\n").filter((l) => l.startsWith("R")).length).toBeGreaterThan(10);
    expect(log.split("\n").filter((l) => l.split(" ").length === 2 && /^[0-9a-f]{40} [0-9a-f]{40}$/.test(l)).length).toBeGreaterThan(10);
    expect(files.some((f) => /\.(png|woff2|bin)$/.test(f))).toBe(true);
  });

  test("history follows each sampled file exactly as git log --follow --numstat does, and stops at the name with --no-follow", async () => {
    const head = runGit(dir, ["rev-parse", "HEAD"]).trim();
    for (const path of sample) {
      const r = await ask("history", dir, { path, limit: 10000 });
      const mine = historyAsLog(r);
      expect({ path, commits: mine }).toEqual({ path, commits: gitLogFile(dir, "HEAD", path, true) });
      // git's own walk, what answers during a first index, gives the same rows.
      const walked = (await gitFileChanges({ index: await indexFor(dir) } as QueryContext, head, path, 10000)).map((c) => short(c.sha));
      expect({ path, walked }).toEqual({ path, walked: mine.map((c: any) => c.sha) });
      const plain = await ask("history", dir, { path, limit: 10000, follow: false });
      expect({ path, shas: plain.commits.map((c: any) => c.sha) }).toEqual({ path, shas: gitLogFile(dir, "HEAD", path, false).map((c) => c.sha) });
    }
  }, 300_000);

  test("blame of each sampled text file equals git blame line by line", async () => {
    let compared = 0;
    for (const path of sample) {
      const r = await ask("blame", dir, { path }).catch((e) => e);
      if (r.code === "BINARY_FILE") continue;
      const truth = gitBlame(dir, "HEAD", path);
      expect({ path, lines: hunksToLines(r.hunks, path) }).toEqual({ path, lines: truth.map((o, i) => ({ line: i + 1, ...asLore(o, path) })) });
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  }, 300_000);

  test("cochange counts equal sets from git log --name-only, for the default window and for all history", async () => {
    const existing = new Set(files);
    const history = gitCommitFiles(dir, "HEAD");
    for (const path of sample.slice(0, 12)) {
      for (const commits of ["500", "all"] as const) {
        const r = await ask("cochange", dir, { paths: [path], commits, limit: 200 });
        const truth = gitCochange(dir, "HEAD", path, commits === "all" ? undefined : 500, 50, history);
        expect({ path, commits, n: r.commits }).toEqual({ path, commits, n: truth.commits });
        const expected = new Map([...truth.counts].filter(([f]) => existing.has(f)));
        const mine = new Map(r.results.map((x: any) => [x.path, x.count]));
        if (r.truncated) for (const [f, n] of mine) expect({ f, n }).toEqual({ f, n: expected.get(f as string)! });
        else expect(mine).toEqual(expected);
      }
    }
  }, 120_000);

  test("hotspot commit counts equal git log --name-only over the window", async () => {
    const r = await ask("hotspots", dir, { limit: 1000 });
    const counts = new Map<string, number>();
    for (const c of gitCommitFiles(dir, "HEAD", 500)) for (const f of c.files) counts.set(f, (counts.get(f) ?? 0) + 1);
    expect(new Map(r.results.map((x: any) => [x.path, x.commits]))).toEqual(new Map([...counts].filter(([f]) => files.includes(f))));
  });

  test("history and blame as of an older commit equal git's there", async () => {
    const old = runGit(dir, ["rev-parse", "HEAD~400"]).trim();
    const then = gitFiles(dir, old).filter((_, i) => i % 9 === 0);
    for (const path of then) {
      const r = await ask("history", dir, { path, limit: 10000, until: old });
      expect({ path, shas: r.commits.map((c: any) => c.sha) }).toEqual({ path, shas: gitLogFile(dir, old, path, true).map((c) => c.sha) });
      const b = await ask("blame", dir, { path, until: old }).catch((e) => e);
      if (b.code === "BINARY_FILE") continue;
      expect({ path, shas: hunksToLines(b.hunks).map((l) => l.sha) }).toEqual({ path, shas: gitBlame(dir, old, path).map((o) => o.sha) });
    }
  }, 300_000);
});
