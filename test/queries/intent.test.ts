import { afterAll, beforeAll, expect, test } from "bun:test";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitBlame } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import type { TestRepo } from "../helpers/git-repo.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

test("intent lists each commit behind the range with its full message and files, as git show says", async () => {
  for (const [path, a, b] of [["src/main.js", 1, 15], ["README.md", 1, 6], ["test/main.test.js", 2, 3]] as const) {
    const r = await ask("intent", repo.dir, { path, startLine: a, endLine: b });
    expect(r.range).toEqual([a, b]);
    const owners = gitBlame(repo.dir, "HEAD", path, ["-L", `${a},${b}`]);
    expect(r.commits.map((c: any) => c.sha).sort()).toEqual([...new Set(owners.map((o) => o.sha))].sort());
    for (const c of r.commits) {
      expect(c.message).toBe(repo.git("show", "-s", "--format=%B", c.sha).replace(/\n+$/, ""));
      const files = repo.git("-c", "core.quotepath=off", "show", "--name-only", "-z", "--format=", c.sha).split("\0").map((f) => f.replace(/^\n/, "")).filter(Boolean).sort();
      expect(c.files).toEqual(files.filter((f) => f !== path).slice(0, 50));
      expect(c.filesTotal).toBe(files.length);
      expect(c.sha).toMatch(/^[0-9a-f]{12}$/);
      expect(c.subject).toBeUndefined();
      expect(c.email).toBeUndefined();
      const mine = c.lines.flatMap(([s, e]: [number, number]) => Array.from({ length: e - s + 1 }, (_, i) => s + i));
      const theirs = owners.map((o, i) => (o.sha === c.sha ? a + i : 0)).filter(Boolean);
      expect(mine).toEqual(theirs);
    }
  }
});

test("intent keeps a multi-line message whole", async () => {
  const r = await ask("intent", repo.dir, { path: "ünïcödé.txt", startLine: 1, endLine: 2 });
  expect(r.commits[0].message).toBe("Start the story\n\nWith a body that explains\nwhy it starts.");
  expect(r.commits[0].subject).toBeUndefined();
});

test("intent rejects a range past the end of the file", async () => {
  await expect(ask("intent", repo.dir, { path: "README.md", startLine: 1, endLine: 99 })).rejects.toMatchObject({ code: "BAD_RANGE" });
  await expect(ask("intent", repo.dir, { path: "README.md", startLine: 5, endLine: 2 })).rejects.toMatchObject({ code: "BAD_RANGE" });
  await expect(ask("intent", repo.dir, { path: "README.md", startLine: 0, endLine: 2 })).rejects.toMatchObject({ code: "BAD_RANGE" });
});
