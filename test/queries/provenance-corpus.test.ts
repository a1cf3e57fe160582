/** Provenance on real histories: pr as subjects and merges say (express, hono), release as git tag --contains finds it, agent as git log --grep finds its signals (hono). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { hasExpress, hasHono } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { compareReleases, releaseName } from "../../src/index/release-tags.ts";
import { agentsByGit, prsByGit } from "../helpers/provenance-truth.ts";

isolateHome();

async function checkPrs(dir: string): Promise<number> {
  await ask("log", dir, { limit: 1 });
  const ix = await indexFor(dir);
  const expected = prsByGit(dir);
  const all = runGit(dir, ["rev-list", "HEAD"]).split("\n").filter(Boolean);
  const wrong = all.filter((sha) => ix.store.provenance.marksOf(sha)?.pr !== expected.get(sha));
  expect(wrong.slice(0, 5).map((s) => [s, ix.store.provenance.marksOf(s)?.pr, expected.get(s)])).toEqual([]);
  return expected.size;
}

describe.skipIf(!hasExpress)("provenance on express", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await indexedClone("express");
  });
  afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));

  test("every commit's pr is what its subject or the merge that brought it in says, as git log and rev-list M^1..M^2 find it", async () => {
    expect(await checkPrs(dir)).toBeGreaterThan(400);
  });

  test("log carries the pr of a commit merged through a pull request, and no release where the clone has no tags", async () => {
    const merge = runGit(dir, ["log", "-1", "--merges", "--format=%H %s", "--grep=^Merge pull request #"]).trim();
    const pr = Number(/#(\d+)/.exec(merge)![1]);
    const inside = runGit(dir, ["rev-list", "-1", `${merge.split(" ")[0]}^2`, `^${merge.split(" ")[0]}^1`]).trim();
    const r = await ask("log", dir, { until: inside, limit: 1 });
    expect(r.commits[0].pr).toBe(pr);
    expect(r.commits[0].release).toBeUndefined();
  });
});

describe.skipIf(!hasHono)("provenance on hono", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await indexedClone("hono");
  });
  afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));

  test("every commit's pr is what its subject or merge says", async () => {
    expect(await checkPrs(dir)).toBeGreaterThan(2000);
  });

  test("release is the earliest release tag (version order) git tag --contains lists, for sampled commits, and unreleased past the last tag", async () => {
    await ask("log", dir, { limit: 1 });
    const ix = await indexFor(dir);
    const all = runGit(dir, ["rev-list", "HEAD"]).split("\n").filter(Boolean);
    const sample = all.filter((_, i) => i % 97 === 0);
    for (const sha of sample) {
      const tags = runGit(dir, ["tag", "--contains", sha]).split("\n").flatMap((t) => {
        const n = releaseName(t);
        return n ? [n] : [];
      });
      tags.sort(compareReleases);
      expect([sha, ix.store.provenance.releaseOf(sha, "") ?? "unreleased"]).toEqual([sha, tags[0]?.tag ?? "unreleased"]);
    }
    const h = await ask("history", dir, { path: "src/hono.ts", limit: 3 });
    for (const c of h.commits) expect(c.release).toBeDefined();
  });

  test("agent is set on exactly the commits whose messages carry an agent's co-author trailer or Generated with line, as git log --grep finds them", async () => {
    await ask("log", dir, { limit: 1 });
    const ix = await indexFor(dir);
    const expected = agentsByGit(dir);
    const claude = [...expected].filter(([, a]) => a === "claude").map(([s]) => s);
    expect(claude.length).toBeGreaterThanOrEqual(10);
    const credited = new Map([...ix.store.provenance.agentCommits()].filter(([sha]) => ix.store.history.commitId(sha) !== undefined));
    expect(Object.fromEntries([...credited].sort())).toEqual(Object.fromEntries([...expected].sort()));
    const one = claude[0]!;
    const show = await ask("show", dir, { rev: one });
    expect(show.agent).toBe("claude");
    expect(show.agentSignal).toMatch(/anthropic|claude code/i);
  });
});
