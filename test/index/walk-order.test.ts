import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { walkOrder, type WalkCommit } from "../../src/index/walk-order.ts";
import { generateRepo } from "../bench/gen-repo.ts";
import { cloneExpress, cloneHono, hasExpress, hasHono } from "../helpers/express.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";

const scratch = tempDir("lore-walk-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every commit's parents and committer time, as git prints them. */
function graph(dir: string): Map<string, WalkCommit> {
  const m = new Map<string, WalkCommit>();
  for (const line of runGit(dir, ["log", "--all", "--format=%H %ct %P"]).trim().split("\n")) {
    const [sha, time, ...parents] = line.split(" ");
    m.set(sha!, { commitTime: Number(time), parents: parents.filter(Boolean) });
  }
  return m;
}

function gitOrder(dir: string, rev = "HEAD"): string[] {
  return runGit(dir, ["rev-list", rev]).trim().split("\n");
}

describe("the walk lists commits in git's own order", () => {
  test("on merges whose sides share committer dates and run against the clock", () => {
    const repo = new TestRepo();
    const at = (t: number) => ({ GIT_COMMITTER_DATE: `${1_700_000_000 + t} +0000`, GIT_AUTHOR_DATE: `${1_700_000_000 + t} +0000` });
    const commit = (msg: string, t: number) => {
      runGit(repo.dir, ["commit", "-q", "--allow-empty", "-m", msg], at(t));
    };
    commit("root", 1000);
    commit("a1", 2000);
    runGit(repo.dir, ["checkout", "-q", "-b", "side", "HEAD~1"]);
    commit("s1", 2000); // the same second as a1
    commit("s2", 1500); // older than its parent: a skewed clock
    commit("s3", 2000);
    runGit(repo.dir, ["checkout", "-q", "main"]);
    commit("a2", 2000);
    runGit(repo.dir, ["merge", "-q", "--no-ff", "-m", "merge side", "side"], at(2000));
    runGit(repo.dir, ["checkout", "-q", "-b", "third", "HEAD~2"]);
    commit("t1", 900);
    runGit(repo.dir, ["checkout", "-q", "main"]);
    runGit(repo.dir, ["merge", "-q", "--no-ff", "-m", "merge third", "third"], at(3000));
    const g = graph(repo.dir);
    for (const rev of ["HEAD", "HEAD^2", "side", "HEAD~1"]) {
      const sha = runGit(repo.dir, ["rev-parse", rev]).trim();
      expect(walkOrder(sha, (s) => g.get(s))).toEqual({ order: gitOrder(repo.dir, rev), missing: [] });
    }
  });

  test("on a generated history with a merge every few commits", async () => {
    const gen = await generateRepo({ dir: join(scratch, "gen"), commits: 600, files: 60, seed: 7, mergeEvery: 5 });
    const g = graph(gen.dir);
    expect(walkOrder(gen.head, (s) => g.get(s)).order).toEqual(gitOrder(gen.dir));
  });

  test.if(hasExpress)("on express's whole history", () => {
    const dir = cloneExpress(join(scratch, "express"));
    const g = graph(dir);
    const head = runGit(dir, ["rev-parse", "HEAD"]).trim();
    expect(walkOrder(head, (s) => g.get(s)).order).toEqual(gitOrder(dir));
  });

  test.if(hasHono)("on hono's whole history", () => {
    const dir = cloneHono(join(scratch, "hono"));
    const g = graph(dir);
    const head = runGit(dir, ["rev-parse", "HEAD"]).trim();
    expect(walkOrder(head, (s) => g.get(s)).order).toEqual(gitOrder(dir));
  });

  test("names the parents it does not know: where the known history stops", () => {
    const repo = new TestRepo();
    repo.commit("one");
    const two = repo.commit("two");
    const three = repo.commit("three");
    const g = graph(repo.dir);
    g.delete(repo.git("rev-parse", "HEAD~2").trim());
    expect(walkOrder(three, (s) => g.get(s))).toEqual({ order: [three, two], missing: [repo.git("rev-parse", "HEAD~2").trim()] });
  });
});
