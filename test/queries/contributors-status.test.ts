import { afterAll, beforeAll, expect, test } from "bun:test";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitBlame, gitFiles, gitHead } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { TestRepo } from "../helpers/git-repo.ts";
import { renderStatus } from "../../src/cli/render/status.ts";
import { plain } from "../../src/cli/style.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

function blameSums(paths: string[]) {
  const sums = new Map<string, { lines: number; shas: Set<string> }>();
  for (const p of paths)
    for (const o of gitBlame(repo.dir, "HEAD", p)) {
      const s = sums.get(o.email) ?? { lines: 0, shas: new Set() };
      s.lines++;
      s.shas.add(o.sha);
      sums.set(o.email, s);
    }
  return sums;
}

test("contributors sums lines per author exactly as git blame of every text file does", async () => {
  const r = await ask("contributors", repo.dir, { limit: 100 });
  const sums = blameSums(gitFiles(repo.dir).filter((f) => f !== "logo.png"));
  expect(r.totalLines).toBe([...sums.values()].reduce((n, s) => n + s.lines, 0));
  expect(r.results.length).toBe(sums.size);
  for (const x of r.results) {
    // commits: as git shortlog -s counts them (every commit of theirs, not only those whose lines survive).
    const commits = Number(repo.git("log", "--use-mailmap", "--format=%aE", "HEAD").split("\n").filter((e) => e === x.email).length);
    expect({ email: x.email, lines: x.lines, commits: x.commits }).toEqual({ email: x.email, lines: sums.get(x.email)!.lines, commits });
    expect(x.share).toBe(Math.round((x.lines / r.totalLines) * 100) / 100);
  }
  expect(r.results.map((x: any) => x.lines)).toEqual(r.results.map((x: any) => x.lines).sort((a: number, b: number) => b - a));
});

test("contributors of a folder count only its files", async () => {
  const r = await ask("contributors", repo.dir, { path: "src" });
  const sums = blameSums(gitFiles(repo.dir).filter((f) => f.startsWith("src/")));
  expect(r.totalLines).toBe([...sums.values()].reduce((n, s) => n + s.lines, 0));
});

test("status reports HEAD as git rev-parse does, and a fresh index after a question", async () => {
  await ask("history", repo.dir, { path: "README.md" });
  const s = await ask("status", repo.dir);
  expect(s.head).toBe(gitHead(repo.dir));
  expect(s.indexedHead).toBe(s.head);
  expect(s.branch).toBe("main");
  expect(s.state).toBe("fresh");
  expect(s.commitsIndexed).toBe(Number(repo.git("rev-list", "--count", "HEAD").trim()));
  expect(s.filesTotal).toBe(gitFiles(repo.dir).length);
  expect(s.shallow).toBe(false);
  expect(s.dbBytes).toBeGreaterThan(0);
  // DESIGN's shape; maxCommits and rebuilt appear only when they have something to say.
  const shape = "repo head branch indexedHead state commitsIndexed churnComplete filesTotal filesBlamed filesUnblamable indexing lastIndexedAt shallow walksGit dbPath dbBytes daemon snapshots";
  expect(Object.keys(s).sort()).toEqual(shape.split(" ").sort());
  repo.write("new.txt", "new\n");
  repo.commit("A new commit");
  const stale = await ask("status", repo.dir);
  expect(stale.state).toBe("stale");
  expect(stale.head).toBe(gitHead(repo.dir));
});

test("status counts binary files and symlinks as never blamed, so a blamed repository shows as done", async () => {
  const r = new TestRepo();
  try {
    r.write("a.txt", "one\ntwo\n").write("b.bin", new Uint8Array([0, 1, 2, 0, 3]));
    symlinkSync("a.txt", join(r.dir, "link"));
    r.commit("Text, binary and a symlink");
    await ask("history", r.dir, { path: "a.txt" });
    const before = await ask("status", r.dir);
    expect({ total: before.filesTotal, blamed: before.filesBlamed }).toEqual({ total: 3, blamed: 0 });
    await ask("blame", r.dir, { path: "a.txt" });
    await expect(ask("blame", r.dir, { path: "b.bin" })).rejects.toMatchObject({ code: "BINARY_FILE" });
    const after = await ask("status", r.dir);
    expect({ blamed: after.filesBlamed, unblamable: after.filesUnblamable }).toEqual({ blamed: 1, unblamable: 2 });
    const text = renderStatus(after, plain);
    expect(text).toContain("3 (1 blamed; 2 binary or symlinks, never blamed)");
  } finally {
    r.cleanup();
  }
});
