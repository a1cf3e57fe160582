/** Provenance on real histories: pr as subjects and merges say (express, hono), release as git tag --contains finds it, agent as git log --grep finds its signals (hono). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { hasExpress, hasHono, cloneExpress, cloneHono } from "../helpers/express.ts";
import { runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { compareReleases, releaseName } from "../../src/index/release-tags.ts";

isolateHome();

/** What git's log says each commit's change request is: its own subject or merge trailer, else the oldest merge whose M^1..M^2 holds it. */
function prsByGit(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const records = runGit(dir, ["log", "--format=%H%x00%P%x00%s%x00%B%x1e"]).split("\x1e\n").filter(Boolean);
  const merges = new Map<string, number>();
  for (const rec of records) {
    const [sha, parents, subject, body] = rec.replace(/\x1e$/, "").split("\0") as [string, string, string, string];
    const m = /^Merge pull request #(\d+) from /.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject) ?? /^See merge request \S+!(\d+)\s*$/m.exec(body);
    if (!m) continue;
    out.set(sha, Number(m[1]));
    if (parents.includes(" ")) merges.set(sha, Number(m[1]));
  }
  // Oldest merges first: a commit belongs to the first change request that merged it.
  for (const merge of runGit(dir, ["rev-list", "--topo-order", "--reverse", "--merges", "HEAD"]).split("\n").filter((s) => merges.has(s))) {
    for (const sha of runGit(dir, ["rev-list", `${merge}^2`, `^${merge}^1`]).split("\n").filter(Boolean)) if (!out.has(sha)) out.set(sha, merges.get(merge)!);
  }
  return out;
}

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
  beforeAll(() => {
    dir = cloneExpress();
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
  beforeAll(() => {
    dir = cloneHono();
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
    const grep = (pattern: string) => runGit(dir, ["log", "-i", "-E", `--grep=${pattern}`, "--format=%H"]).split("\n").filter(Boolean);
    const claude = new Set([...grep("^[[:space:]]*co-authored-by: .*<noreply@anthropic\\.com>"), ...grep("generated with \\[?claude code")]);
    const copilot = new Set(grep("^[[:space:]]*co-authored-by: copilot <"));
    expect(claude.size).toBeGreaterThanOrEqual(10);
    const credited = new Map([...ix.store.provenance.agentCommits()].filter(([sha]) => ix.store.history.commitId(sha) !== undefined));
    const expected = new Map([...[...claude].map((s) => [s, "claude"] as const), ...[...copilot].map((s) => [s, "copilot"] as const)]);
    expect(Object.fromEntries([...credited].sort())).toEqual(Object.fromEntries([...expected].sort()));
    const one = [...claude][0]!;
    const show = await ask("show", dir, { rev: one });
    expect(show.agent).toBe("claude");
    expect(show.agentSignal).toMatch(/anthropic|claude code/i);
  });
});
