import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { asLore, gitBlame, gitFiles, hunksToLines, short } from "../helpers/git-truth.ts";
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
      const mine = hunksToLines(r.hunks, path);
      expect(mine.length).toBe(truth.length);
      mine.forEach((l, i) => {
        expect({ path, line: l.line, sha: l.sha, origPath: l.origPath, origLine: l.origLine }).toEqual({ path, line: i + 1, ...asLore(truth[i]!, path) });
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
    const mine = hunksToLines(r.hunks, "src/main.js");
    expect(mine.map((l) => l.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mine.map((l) => l.sha)).toEqual(truth.map((o) => o.sha));
    expect(mine.map((l) => l.origLine)).toEqual(truth.map((o) => asLore(o, "src/main.js").origLine));
  });

  test("hunks are [start, end, sha], one per run of lines of one commit, with the origin only for lines from another file", async () => {
    const rev = repo.git("rev-parse", "HEAD~2").trim();
    for (const until of [undefined, rev]) {
      const r = await ask("blame", repo.dir, { path: "src/main.js", until });
      expect(r.rev).toMatch(/^[0-9a-f]{40}$/);
      for (const h of r.hunks) {
        expect(h[2]).toMatch(/^[0-9a-f]{12}$/);
        expect(h.length === 3 || (h.length === 5 && h[3] !== "src/main.js")).toBe(true);
      }
      // No two neighbours that one hunk could hold.
      r.hunks.slice(1).forEach((h: any[], i: number) => {
        const prev = r.hunks[i];
        expect(prev[2] === h[2] && prev.length === 3 && h.length === 3).toBe(false);
      });
    }
  });

  test("-L 0,5 and every other impossible range is BAD_RANGE", async () => {
    for (const [startLine, endLine] of [[0, 5], [-1, 2], [5, 0], [9, 2], [1, 999]])
      await expect(ask("blame", repo.dir, { path: "src/main.js", startLine, endLine })).rejects.toMatchObject({ code: "BAD_RANGE" });
  });

  test("lines moved by a rename name the file they came from", async () => {
    const rev = repo.git("rev-parse", "HEAD~2").trim();
    const r = await ask("blame", repo.dir, { path: "src/main.js", until: rev });
    expect(r.hunks.some((h: any) => h[3] === "src/app.js")).toBe(true);
    expect(hunksToLines(r.hunks, "src/main.js")).toEqual(gitBlame(repo.dir, rev, "src/main.js").map((o, i) => ({ line: i + 1, ...asLore(o, "src/main.js") })));
  });

  test("commits are listed once, keyed by 12-hex sha, as [author, time, subject] as git says, no email", async () => {
    const r = await ask("blame", repo.dir, { path: "README.md" });
    const shas = new Set<string>(r.hunks.map((h: any) => h[2]));
    expect(Object.keys(r.commits).sort()).toEqual([...shas].sort());
    for (const [sha, c] of Object.entries<any>(r.commits)) {
      const [author, time, subject] = repo.git("log", "-1", "--use-mailmap", "--date=unix", "--format=%aN%x00%at%x00%s", sha).trim().split("\0");
      expect(c).toEqual([author, new Date(Number(time) * 1000).toISOString().replace(".000Z", "Z"), subject]);
    }
  });

  test("a change and its revert leave the same content but move blame to the revert", async () => {
    const before = await ask("blame", repo.dir, { path: "README.md" });
    repo.write("README.md", "changed\n");
    repo.commit("Change readme");
    repo.git("revert", "--no-edit", "HEAD");
    const after = await ask("blame", repo.dir, { path: "README.md" });
    expect(hunksToLines(after.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "README.md").map((o) => o.sha));
    expect(after.hunks.map((h: any) => h[2])).not.toEqual(before.hunks.map((h: any) => h[2]));
  });

  test(".git-blame-ignore-revs is honoured, and --no-ignore-revs turns it off", async () => {
    repo.write("src/util.js", repo.git("show", "HEAD:src/util.js").replace(/export const/g, "export  const"));
    const sweep = repo.commit("Reformat util");
    repo.write(".git-blame-ignore-revs", sweep + "\n");
    repo.commit("Ignore the reformat");
    const honoured = await ask("blame", repo.dir, { path: "src/util.js" });
    expect(hunksToLines(honoured.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "src/util.js", ["--ignore-revs-file", ".git-blame-ignore-revs"]).map((o) => o.sha));
    expect(honoured.hunks.some((h: any) => h[2] === short(sweep))).toBe(false);
    const plain = await ask("blame", repo.dir, { path: "src/util.js", ignoreRevs: false });
    expect(hunksToLines(plain.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "src/util.js").map((o) => o.sha));
    expect(plain.hunks.every((h: any) => h[2] === short(sweep))).toBe(true);
  });
});
