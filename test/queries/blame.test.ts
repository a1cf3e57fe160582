import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitBlame, gitFiles, hunksToLines } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import type { TestRepo } from "../helpers/git-repo.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

function textFiles(rev: string): string[] {
  return gitFiles(repo.dir, rev).filter((f) => f !== "logo.png");
}

describe("blame", () => {
  test("every line of every file matches git blame at HEAD", async () => {
    for (const path of textFiles("HEAD")) {
      const r = await ask("blame", repo.dir, { path });
      const truth = gitBlame(repo.dir, "HEAD", path);
      expect(r.lines).toBe(truth.length);
      const mine = hunksToLines(r.hunks);
      expect(mine.length).toBe(truth.length);
      mine.forEach((l, i) => {
        expect({ path, line: l.line, sha: l.sha, origPath: l.origPath, origLine: l.origLine }).toEqual({ path, line: i + 1, sha: truth[i]!.sha, origPath: truth[i]!.origPath, origLine: truth[i]!.origLine });
      });
      for (const sha of new Set(mine.map((l) => l.sha))) expect(r.commits[sha]).toBeDefined();
    }
  });

  test("blame as of an older commit matches git blame at that commit", async () => {
    const rev = repo.git("rev-parse", "HEAD~3").trim();
    for (const path of textFiles(rev)) {
      const r = await ask("blame", repo.dir, { path, until: rev });
      expect(r.rev).toBe(rev);
      expect(hunksToLines(r.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, rev, path).map((o) => o.sha));
    }
  });

  test("a line range returns exactly the lines asked, each in one hunk", async () => {
    const r = await ask("blame", repo.dir, { path: "src/main.js", startLine: 2, endLine: 9 });
    const truth = gitBlame(repo.dir, "HEAD", "src/main.js", ["-L", "2,9"]);
    const mine = hunksToLines(r.hunks);
    expect(mine.map((l) => l.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mine.map((l) => l.sha)).toEqual(truth.map((o) => o.sha));
    expect(mine.map((l) => l.origLine)).toEqual(truth.map((o) => o.origLine));
  });

  test("lines moved by a rename name the file they came from", async () => {
    const rev = repo.git("rev-parse", "HEAD~2").trim();
    const r = await ask("blame", repo.dir, { path: "src/main.js", until: rev });
    expect(r.hunks.some((h: any) => h.origPath === "src/app.js")).toBe(true);
    expect(hunksToLines(r.hunks).map((l) => l.origPath)).toEqual(gitBlame(repo.dir, rev, "src/main.js").map((o) => o.origPath));
  });

  test("commits are listed once with author, email, time and subject", async () => {
    const r = await ask("blame", repo.dir, { path: "README.md" });
    const shas = new Set<string>(r.hunks.map((h: any) => h.sha));
    expect(Object.keys(r.commits).sort()).toEqual([...shas].sort());
    for (const c of Object.values<any>(r.commits)) {
      expect(c.author).toBeTruthy();
      expect(c.email).toContain("@");
      expect(c.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  test("a change and its revert leave the same content but move blame to the revert", async () => {
    const before = await ask("blame", repo.dir, { path: "README.md" });
    repo.write("README.md", "changed\n");
    repo.commit("Change readme");
    repo.git("revert", "--no-edit", "HEAD");
    const after = await ask("blame", repo.dir, { path: "README.md" });
    expect(hunksToLines(after.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "README.md").map((o) => o.sha));
    expect(after.hunks.map((h: any) => h.sha)).not.toEqual(before.hunks.map((h: any) => h.sha));
  });

  test(".git-blame-ignore-revs is honoured, and --no-ignore-revs turns it off", async () => {
    repo.write("src/util.js", repo.git("show", "HEAD:src/util.js").replace(/export const/g, "export  const"));
    const sweep = repo.commit("Reformat util");
    repo.write(".git-blame-ignore-revs", sweep + "\n");
    repo.commit("Ignore the reformat");
    const honoured = await ask("blame", repo.dir, { path: "src/util.js" });
    expect(hunksToLines(honoured.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "src/util.js", ["--ignore-revs-file", ".git-blame-ignore-revs"]).map((o) => o.sha));
    expect(honoured.hunks.some((h: any) => h.sha === sweep)).toBe(false);
    const plain = await ask("blame", repo.dir, { path: "src/util.js", ignoreRevs: false });
    expect(hunksToLines(plain.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "src/util.js").map((o) => o.sha));
    expect(plain.hunks.every((h: any) => h.sha === sweep)).toBe(true);
  });
});
