import { afterAll, expect, test } from "bun:test";
import { discoverRepo } from "../../src/git/repo.ts";
import { readHeadCommit } from "../../src/git/head-file.ts";
import { lines, TestRepo } from "../helpers/git-repo.ts";

const repo = new TestRepo();
afterAll(() => repo.cleanup());

async function expectSameAsGit(dir = repo.dir): Promise<void> {
  const r = await discoverRepo(dir);
  let truth: string | null;
  try {
    truth = new TestRepo(dir, false).git("rev-parse", "--verify", "-q", "HEAD^{commit}").trim();
  } catch {
    truth = null;
  }
  expect(readHeadCommit(r)).toBe(truth);
}

test("an unborn branch has no commit", async () => {
  await expectSameAsGit();
});

test("HEAD is read through a loose branch, a packed branch and a detached HEAD as git reads it", async () => {
  repo.write("a.txt", lines("a"));
  repo.commit("One");
  await expectSameAsGit();
  repo.git("pack-refs", "--all", "--prune");
  await expectSameAsGit();
  repo.write("a.txt", lines("b"));
  repo.commit("Two");
  await expectSameAsGit();
  repo.git("pack-refs", "--all", "--prune");
  repo.git("checkout", "-q", "--detach", "HEAD~1");
  await expectSameAsGit();
  repo.git("checkout", "-q", "main");
  await expectSameAsGit();
});

test("a linked worktree's HEAD is its own", async () => {
  const wt = repo.dir + "-wt";
  repo.git("worktree", "add", "-q", "--detach", wt, "HEAD~1");
  try {
    await expectSameAsGit(wt);
    repo.git("-C", wt, "checkout", "-q", "-b", "wt");
    new TestRepo(wt, false).write("w.txt", "w").commit("In worktree");
    await expectSameAsGit(wt);
    await expectSameAsGit();
  } finally {
    repo.git("worktree", "remove", "--force", wt);
  }
});
