/** history -L compared with git log -L: the same commits, each with the same range and hunks, on three histories. */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { runGit, TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { gitFiles } from "../helpers/git-truth.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { buildStoryRepo } from "../helpers/story-repo.ts";

/** What git log -L prints, commit by commit: 12-hex sha, the + side of the hunks, the hunk lines. */
function gitLineLog(dir: string, spec: string, path: string, rev = "HEAD") {
  const out = runGit(dir, ["log", `-L${spec}:${path}`, "--format=%x1e%H%x00", rev]);
  return out
    .split("\x1e")
    .slice(1)
    .map((rec) => {
      const sha = rec.slice(0, rec.indexOf("\0"));
      const body = rec.slice(rec.indexOf("\0") + 1).split("\n");
      const diff = body.slice(body.findIndex((l) => l.startsWith("@@ ")));
      while (diff.at(-1) === "") diff.pop();
      const plus = diff.flatMap((l) => {
        const m = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(l);
        return m ? [[Number(m[1]), Number(m[1]) + Math.max(1, Number(m[2] ?? 1)) - 1]] : [];
      });
      // A merge git lists without hunks: compared by its diff (none) only.
      return { sha: sha.slice(0, 12), range: plus.length ? [Math.min(...plus.map((p) => p[0]!)), Math.max(...plus.map((p) => p[1]!))] : null, diff };
    });
}

async function sameAsGit(dir: string, path: string, input: Record<string, unknown>, spec: string, rev?: string) {
  const truth = gitLineLog(dir, spec, path, rev);
  const r = await ask("history", dir, { path, limit: 10000, diffLines: 100000, ...input, ...(rev ? { until: rev } : {}) });
  expect(r.commits.map((c: any) => c.sha)).toEqual(truth.map((t) => t.sha));
  expect(r.commits.map((c: any, i: number) => (truth[i]!.range ? c.range : null))).toEqual(truth.map((t) => t.range));
  expect(r.commits.map((c: any) => c.diff)).toEqual(truth.map((t) => t.diff.join("\n")));
  return r;
}

beforeAll(() => {
  isolateHome();
});

describe("history -L", () => {
  test("equals git log -L on the story repository, across the rename, at HEAD and at an older commit", async () => {
    const story = buildStoryRepo();
    const r = await sameAsGit(story.dir, "src/main.js", { lines: "3,6" }, "3,6");
    expect(r.range).toEqual([3, 6]);
    await sameAsGit(story.dir, "src/main.js", { lines: "1,2" }, "1,2", "HEAD~2");
    await sameAsGit(story.dir, "README.md", { lines: "4," }, "4,6");
  });

  test("-L :NAME follows a function as git does; a missing one or a range past the end is BAD_RANGE", async () => {
    const r = new TestRepo();
    r.write("a.js", lines("function alpha() {", "  return 1;", "}", "", "function beta() {", "  return 2;", "}")).commit("add");
    r.write("a.js", lines("// head", "function alpha() {", "  return 10;", "}", "", "function beta() {", "  return 2;", "}")).commit("alpha returns 10");
    r.write("a.js", lines("// head", "function alpha() {", "  return 10;", "}", "", "function beta() {", "  return 20;", "}")).commit("beta returns 20");
    const a = await sameAsGit(r.dir, "a.js", { lines: ":alpha" }, ":alpha");
    expect(a.commits.map((c: any) => c.subject)).toEqual(["alpha returns 10", "add"]);
    expect(cli(r.dir, ["history", "a.js", "-L", ":alpha", "--json"]).json).toEqual(a);
    expect(cli(r.dir, ["history", "a.js", "-L", "2,3", "--json"]).json.range).toEqual([2, 3]);
    expect(a.range).toEqual([2, 5]);
    await expect(ask("history", r.dir, { path: "a.js", lines: ":gamma" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("history", r.dir, { path: "a.js", lines: "5,9" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("history", r.dir, { path: "a.js", lines: "5,3" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("history", r.dir, { path: "a.js", lines: "0,3" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("history", r.dir, { path: "a.js", lines: "x" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    // A later commit that moves alpha without touching it: the range is where alpha is now.
    r.write("a.js", lines("// head", "// two", "// more", "function alpha() {", "  return 10;", "}", "", "function beta() {", "  return 20;", "}")).commit("comments");
    const moved = await ask("history", r.dir, { path: "a.js", lines: ":alpha" });
    expect(moved.range).toEqual([4, 7]);
    expect(moved.commits.map((c: any) => c.subject)).toEqual(["alpha returns 10", "add"]);
  });

  test("the diff is cut per commit at diffLines, the list at limit, and a repeated question comes from the cache", async () => {
    const r = new TestRepo();
    for (let i = 0; i < 4; i++) r.write("f.txt", lines(...Array.from({ length: 30 }, (_, k) => `line ${k} v${i}`))).commit(`v${i}`);
    const first = await ask("history", r.dir, { path: "f.txt", lines: "1,30", diffLines: 10, limit: 2 });
    expect(first.commits.length).toBe(2);
    expect(first.truncated).toBe(true);
    expect(first.commits[0].diff.split("\n").length).toBe(11);
    expect(first.commits[0].diff.split("\n").at(-1)).toMatch(/more lines/);
    const again = await ask("history", r.dir, { path: "f.txt", lines: "1,30", diffLines: 10, limit: 2 });
    expect(again).toEqual(first);
    // A new commit that changes the file changes the key: the answer is new.
    r.write("f.txt", lines(...Array.from({ length: 30 }, (_, k) => `line ${k} v9`))).commit("v9");
    expect((await ask("history", r.dir, { path: "f.txt", lines: "1,30", limit: 2 })).commits[0].subject).toBe("v9");
  });

  test("equals git log -L on sampled files of a generated history", async () => {
    const dir = join(tempDir(), "generated");
    await generateRepo({ dir, commits: 300, files: 60, seed: 5 });
    const files = gitFiles(dir).filter((f) => /\.(ts|js|py|go|md)$/.test(f)).slice(0, 6);
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) {
      const n = runGit(dir, ["show", `HEAD:${f}`]).split("\n").length - 1;
      if (n < 3) continue;
      const a = Math.max(1, Math.floor(n / 3));
      await sameAsGit(dir, f, { lines: `${a},${a + 2}` }, `${a},${a + 2}`);
    }
  }, 120_000);

  test.skipIf(!hasExpress)("equals git log -L on express", async () => {
    const dir = await indexedClone("express");
    await sameAsGit(dir, "lib/response.js", { lines: "126,140" }, "126,140");
    await sameAsGit(dir, "lib/application.js", { lines: ":app.use" }, ":app.use");
  }, 120_000);
});
