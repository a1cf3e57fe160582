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
      const others = files.filter((f) => f !== path);
      expect(c.files.length).toBe(Math.min(5, others.length));
      for (const f of c.files) expect(others).toContain(f);
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

test("intent lists up to 5 files of a commit, those nearest the path first, and all of them with files", async () => {
  const { TestRepo } = await import("../helpers/git-repo.ts");
  const r = new TestRepo();
  try {
    const near = ["src/core/a.ts", "src/core/b.ts", "src/core/deep/c.ts", "src/other.ts", "src/ui/d.ts", "docs/e.md", "z.txt", "lib/x/y/f.js"];
    r.write("src/core/main.ts", "one\ntwo\n");
    for (const f of near) r.write(f, "x\n");
    const sha = r.commit("lint everything");
    const c = (await ask("intent", r.dir, { path: "src/core/main.ts", startLine: 1, endLine: 2 })).commits[0];
    // Same folder, then one folder away (down or up), then two, then further; path order among equals.
    expect(c.files).toEqual(["src/core/a.ts", "src/core/b.ts", "src/core/deep/c.ts", "src/other.ts", "src/ui/d.ts"]);
    expect(c.filesTotal).toBe(9);
    const all = (await ask("intent", r.dir, { path: "src/core/main.ts", startLine: 1, endLine: 2, files: true })).commits[0];
    const git = r.git("-c", "core.quotepath=off", "show", "--name-only", "--format=", sha).trim().split("\n");
    expect(all.files).toEqual(git.filter((f) => f !== "src/core/main.ts"));
    expect(all.filesTotal).toBe(9);
  } finally {
    r.cleanup();
  }
});
