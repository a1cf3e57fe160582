/** search --code NAME --oldest: the oldest commit and the lines it added NAME with, as git show OLDEST -- FILE prints them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { lines, runGit, TestRepo } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  const head = Array.from({ length: 30 }, (_, i) => `const line${i} = ${i};`);
  repo.write("lib/util.js", lines(...head)).write("README.md", "util\n").commit("start");
  // parseThing comes in the middle of the file, with a call of it further down.
  repo.write("lib/util.js", lines(...head.slice(0, 10), "", "function parseThing(s) {", "  return s.trim();", "}", ...head.slice(10, 25), "module.exports = parseThing(' x ');", ...head.slice(25))).write("lib/other.js", "// uses parseThing\n").commit("add parseThing");
  repo.write("lib/util.js", lines(...head, "function parseThing(s) {", "  return s.trim().toLowerCase();", "}")).commit("move parseThing");
});
afterAll(() => repo.cleanup());

/** The + lines of git show SHA -- PATH that contain `text`. */
function gitAdded(sha: string, path: string, text: string): string[] {
  return runGit(repo.dir, ["show", "--format=", sha, "--", path]).split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++") && l.includes(text));
}

test("the oldest commit comes with the hunks that add NAME: git show's added lines that hold it, with context, in git's hunk form", async () => {
  const r = await ask("search", repo.dir, { query: "parseThing", code: true, oldest: true, limit: 1 });
  const oldest = runGit(repo.dir, ["log", "-S", "parseThing", "--reverse", "--format=%H"]).trim().split("\n")[0]!;
  expect(r.results[0].sha).toBe(oldest.slice(0, 12));
  expect(Object.keys(r.diff).sort()).toEqual(["lib/other.js", "lib/util.js"]);
  for (const [path, text] of Object.entries(r.diff as Record<string, string>)) {
    const mine = text.split("\n").filter((l) => l.startsWith("+") && l.includes("parseThing"));
    expect({ path, mine }).toEqual({ path, mine: gitAdded(oldest, path, "parseThing") });
    // Each excerpt's lines are git's, in git's order, under a header that counts them.
    const patch = runGit(repo.dir, ["show", "--format=", oldest, "--", path]);
    for (const hunk of text.split(/\n(?=@@ )/)) {
      const [header, ...body] = hunk.split("\n");
      const m = /^@@ -\d+,(\d+) \+(\d+),(\d+) @@$/.exec(header!)!;
      expect(Number(m[1])).toBe(body.filter((l) => !l.startsWith("+")).length);
      expect(Number(m[3])).toBe(body.filter((l) => !l.startsWith("-")).length);
      expect(patch).toContain(body.join("\n"));
      // The new side's numbers are the file's at that commit.
      const file = runGit(repo.dir, ["show", `${oldest}:${path}`]).split("\n");
      const first = body.findIndex((l) => !l.startsWith("-"));
      expect(file[Number(m[2]) - 1 + 0]).toBe(body[first]!.slice(1));
    }
  }
  // Without oldest, no diff: the newest commits are the answer.
  expect((await ask("search", repo.dir, { query: "parseThing", code: true })).diff).toBeUndefined();
});
