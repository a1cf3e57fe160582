/** intent and history -L of the file on disk, in a merge in progress and in a linked worktree, checked against git blame and git log -L. */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useDiskRepo } from "../helpers/disk-repo.ts";
import { expectBlameLikeGit, expectIntentLikeGit, expectLineHistoryLikeGit, gitDirHash } from "../helpers/disk-truth.ts";
import { BOB, CAROL, lines, TestRepo } from "../helpers/git-repo.ts";
import { short } from "../helpers/git-truth.ts";
import { ask } from "../helpers/lore.ts";

let repo: TestRepo;
const { reset, edit } = useDiskRepo((r) => (repo = r));

describe("intent of the file on disk", () => {
  test("commits carry on-disk line numbers and uncommitted lists the rest", async () => {
    reset();
    edit("src/app.js", (ls) => ["// header", ...ls.slice(0, 9), "changed 10", ...ls.slice(10, 18), ...ls.slice(20)]);
    const r = await expectIntentLikeGit(repo.dir, "src/app.js", 1, 25);
    expect(r.worktree).toBe(true);
    expect(r.uncommitted).toEqual([[1, 1], [11, 11]]);
    for (const c of r.commits) expect(c.message).toBe(repo.git("log", "-1", "--format=%B", c.sha).replace(/\n+$/, ""));
  });

  test("a clean file has neither worktree nor uncommitted; a staged rename keeps its commits", async () => {
    reset();
    const clean = await expectIntentLikeGit(repo.dir, "src/app.js", 3, 12);
    expect(clean.worktree).toBeUndefined();
    repo.git("mv", "moved.txt", "renamed.txt");
    edit("renamed.txt", (ls) => [...ls, "tail"]);
    await expectIntentLikeGit(repo.dir, "renamed.txt", 1, 13);
  });
});

describe("history -L of the file on disk", () => {
  test("on-disk lines map to the smallest HEAD range covering their committed lines, answered as git log -L of it", async () => {
    reset();
    edit("src/app.js", (ls) => ["// header", "// two", ...ls.slice(0, 9), "changed 10", ...ls.slice(10, 18), ...ls.slice(20), "tail"]);
    for (const [a, b] of [[1, 5], [3, 12], [10, 14], [18, 25], [27, 29]] as const) await expectLineHistoryLikeGit(repo.dir, "src/app.js", a, b);
    const r = await ask("history", repo.dir, { path: "src/app.js", lines: "1,4" });
    expect(r).toMatchObject({ range: [1, 4], headRange: [1, 2], uncommitted: [[1, 2]], worktree: true });
  });

  test("lines all uncommitted have no commits; until HEAD answers at the commit", async () => {
    reset();
    edit("src/app.js", (ls) => ["new 1", "new 2", ...ls]);
    const r = await expectLineHistoryLikeGit(repo.dir, "src/app.js", 1, 2);
    expect(r).toMatchObject({ commits: [], uncommitted: [[1, 2]], truncated: false });
    const atHead = await ask("history", repo.dir, { path: "src/app.js", lines: "1,2", until: "HEAD" });
    expect(atHead.worktree).toBeUndefined();
    expect(atHead.commits.map((c: any) => c.sha)).toEqual(gitLineLogShasAt(1, 2));
    await expect(ask("history", repo.dir, { path: "src/app.js", lines: "30,33" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    expect((await ask("history", repo.dir, { path: "src/app.js", lines: "31,32" })).headRange).toEqual([29, 30]);
  });

  test("a staged rename follows the source's lines in HEAD, as git log -L of the source", async () => {
    reset();
    repo.git("mv", "moved.txt", "renamed.txt");
    edit("renamed.txt", (ls) => ["top", ...ls]);
    const r = await ask("history", repo.dir, { path: "renamed.txt", lines: "1,6" });
    expect(r).toMatchObject({ range: [1, 6], headRange: [1, 5], uncommitted: [[1, 1]], worktree: true });
    const truth = repo.git("log", "-L1,5:moved.txt", "--format=%x1e%H", "--no-patch", "HEAD").split("\x1e").slice(1).map((x) => x.trim().slice(0, 12));
    expect(r.commits.map((c: any) => c.sha)).toEqual(truth);
  });

  test("an untracked file: all uncommitted; a clean one as before", async () => {
    reset();
    repo.write("fresh.txt", lines("a", "b", "c"));
    expect(await ask("history", repo.dir, { path: "fresh.txt", lines: "2,3" })).toMatchObject({ range: [2, 3], commits: [], uncommitted: [[2, 3]], worktree: true });
    const clean = await ask("history", repo.dir, { path: "src/app.js", lines: "4,6" });
    expect(clean.worktree).toBeUndefined();
    expect(clean.commits.map((c: any) => c.sha)).toEqual(gitLineLogShasAt(4, 6));
  });
});

function gitLineLogShasAt(a: number, b: number): string[] {
  return repo.git("log", `-L${a},${b}:src/app.js`, "--format=%x1e%H", "--no-patch", "HEAD").split("\x1e").slice(1).map((r) => r.trim().slice(0, 12));
}

describe("a merge in progress", () => {
  test("lines the merged branch brought keep its commits, as git blame of the work tree gives them; a conflict's markers are not committed", async () => {
    reset();
    const base = repo.git("rev-parse", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "topic");
    edit("src/app.js", (ls) => [...ls.slice(0, 25), "topic line 26", "topic line 27", ...ls.slice(27)]);
    repo.write("topic-only.txt", lines("from", "topic"));
    repo.commit("topic work", BOB);
    repo.git("checkout", "-q", "main");
    edit("src/app.js", (ls) => ["main top", ...ls]);
    repo.commit("main work", CAROL);
    try {
      repo.git("merge", "--no-commit", "--no-ff", "-q", "topic");
      const r = await expectBlameLikeGit(repo.dir, "src/app.js");
      expect(r.worktree).toBe(true);
      expect(r.hunks.some((h: any[]) => h[2] === short(repo.git("rev-parse", "topic").trim()))).toBe(true);
      await expectBlameLikeGit(repo.dir, "topic-only.txt");
      await expectIntentLikeGit(repo.dir, "src/app.js", 20, 31);
      // git log -L has no work tree: the lines the merge brought are not HEAD's, so history calls them uncommitted.
      const h = await expectLineHistoryLikeGit(repo.dir, "src/app.js", 24, 30);
      expect(h.uncommitted).toEqual([[27, 28]]);
      // The merge's own edit on top of it: not committed.
      edit("src/app.js", (ls) => [...ls.slice(0, 10), "resolving", ...ls.slice(10)]);
      await expectBlameLikeGit(repo.dir, "src/app.js");
      // reset --hard ends the merge (MERGE_HEAD goes): the file is HEAD's again.
      repo.git("reset", "-q", "--hard");
      expect((await ask("blame", repo.dir, { path: "src/app.js" })).worktree).toBeUndefined();
      // A conflict: both sides changed line 5.
      repo.git("checkout", "-q", "-b", "other", base);
      edit("src/app.js", (ls) => [...ls.slice(0, 4), "other 5", ...ls.slice(5)]);
      repo.commit("other work", BOB);
      repo.git("checkout", "-q", "main");
      edit("src/app.js", (ls) => [...ls.slice(0, 5), "main 5", ...ls.slice(6)]);
      repo.commit("main again", CAROL);
      spawnSync("git", ["merge", "-q", "other"], { cwd: repo.dir });
      await expectBlameLikeGit(repo.dir, "src/app.js");
    } finally {
      spawnSync("git", ["merge", "--abort"], { cwd: repo.dir });
      repo.git("checkout", "-q", "main");
      repo.git("reset", "-q", "--hard", base);
      spawnSync("git", ["branch", "-q", "-D", "topic", "other"], { cwd: repo.dir });
    }
  });
});

describe("the file on disk in a linked worktree", () => {
  test("an edit in a worktree inside the checkout is blamed as git blame in that worktree says; the main checkout's file is its own", async () => {
    reset();
    const wt = join(repo.dir, ".claude", "worktrees", "feat");
    repo.git("worktree", "add", "-q", "-b", "feat", wt);
    try {
      const file = join(wt, "src", "app.js");
      writeFileSync(file, "// worktree edit\n" + readFileSync(file, "utf8"));
      const before = gitDirHash(repo.dir);
      const r = await ask("blame", repo.dir, { path: file });
      expect(gitDirHash(repo.dir)).toBe(before);
      expect(r.worktree).toBe(true);
      const truth = gitBlameWorkTreeShas(wt, "src/app.js");
      expect(r.hunks.flatMap(([s, e, sha]: [number, number, string | null]) => Array.from({ length: e - s + 1 }, () => sha))).toEqual(truth);
      expect((await ask("blame", repo.dir, { path: "src/app.js" })).worktree).toBeUndefined();
    } finally {
      repo.git("worktree", "remove", "--force", wt);
      repo.git("branch", "-q", "-D", "feat");
    }
  });
});

function gitBlameWorkTreeShas(dir: string, path: string): (string | null)[] {
  return spawnSync("git", ["blame", "--porcelain", "--", path], { cwd: dir, encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
    .map((l) => (/^0{40}/.test(l) ? null : l.slice(0, 12)));
}
