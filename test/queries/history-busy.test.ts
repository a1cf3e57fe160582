/**
 * history finds a busy file's newest changes by walking history newest first, a quiet one's by
 * sorting its few changes, and a file busy long ago but quiet lately by a short walk and then
 * the sort. Whichever way, the answer is git log --follow's, at every limit.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { gitLogFile, historyAsLog } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  // busy.txt: changed in every commit. legacy.txt: in each of the first 150, then never.
  // old.txt: like legacy.txt, then renamed to older.txt. rare.txt: changed three times.
  repo.commits((b) => {
    for (let i = 0; i < 300; i++) {
      b.write("busy.txt", lines(i, "busy"));
      if (i < 150) b.write("old.txt", lines(i, "old")).write("legacy.txt", lines(i, "legacy"));
      if (i === 150) b.remove("old.txt").write("older.txt", lines(i, "old"));
      if (i % 100 === 7) b.write("rare.txt", lines(i, "rare"));
      b.commit(`change ${i}`, i % 3 ? BOB : undefined);
    }
  });
}, 120_000);
afterAll(() => repo.cleanup());

test("busy, quiet and once-busy files: every limit gives git log --follow's commits", async () => {
  for (const path of ["busy.txt", "legacy.txt", "older.txt", "rare.txt"]) {
    const truth = gitLogFile(repo.dir, "HEAD", path, true);
    for (const limit of [1, 5, 20, 100, 1000]) {
      const r = await ask("history", repo.dir, { path, limit });
      const mine = historyAsLog(r);
      expect({ path, limit, commits: mine, truncated: r.truncated }).toEqual({ path, limit, commits: truth.slice(0, limit), truncated: truth.length > limit });
    }
  }
});

test("the same at an older commit, where the history is shorter", async () => {
  const old = repo.git("rev-parse", "HEAD~120").trim();
  for (const path of ["busy.txt", "legacy.txt", "older.txt"]) {
    const truth = gitLogFile(repo.dir, old, path, true);
    for (const limit of [3, 40]) {
      const r = await ask("history", repo.dir, { path, limit, until: old });
      expect({ path, limit, shas: r.commits.map((c: any) => c.sha) }).toEqual({ path, limit, shas: truth.slice(0, limit).map((c) => c.sha) });
    }
  }
});
