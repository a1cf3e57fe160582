/** log, show and compare compared with git on a real project's history: express, 6,158 commits. */
import { beforeAll, describe, test } from "bun:test";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { runGit } from "../helpers/git-repo.ts";
import { isolateHome } from "../helpers/lore.ts";
import { expectCompareLikeGit, expectLogLikeGit, expectShowLikeGit } from "../helpers/repo-questions.ts";

let dir = "";

beforeAll(async () => {
  if (!hasExpress) return;
  isolateHome();
  dir = await indexedClone("express");
}, 120_000);

describe.skipIf(!hasExpress)("express", () => {
  test("log equals git log --numstat -M, flag by flag", async () => {
    const merge = runGit(dir, ["log", "--merges", "-n", "1", "--skip=5", "--format=%H"]).trim();
    await expectLogLikeGit(dir, { folder: "lib", file: "lib/router/index.js", author: "douglas", not: `${merge}^2` });
  }, 300_000);

  test("show equals git show for commits and merges", async () => {
    const merges = runGit(dir, ["log", "--merges", "-n", "2", "--format=%H"]).trim().split("\n");
    await expectShowLikeGit(dir, ["HEAD", "HEAD~10", "HEAD~100", ...merges]);
  }, 120_000);

  test("compare equals git between a branch point and HEAD", async () => {
    const merge = runGit(dir, ["log", "--merges", "-n", "1", "--skip=20", "--format=%H"]).trim();
    await expectCompareLikeGit(dir, `${merge}^2`, "HEAD~5");
    await expectCompareLikeGit(dir, "HEAD~30", "HEAD", ["lib"]);
  }, 120_000);
});
