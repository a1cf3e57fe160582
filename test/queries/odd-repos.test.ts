import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { gitBlame, gitHead, gitLogFile, hunksToLines } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

const cleanup: (() => void)[] = [];
beforeAll(() => isolateHome());
afterAll(() => cleanup.forEach((f) => f()));

function repoWith(n: number): TestRepo {
  const r = new TestRepo();
  cleanup.push(() => r.cleanup());
  for (let i = 0; i < n; i++) {
    r.write("a.txt", lines(...Array.from({ length: i + 1 }, (_, k) => `line ${k} v${i}`)));
    r.commit(`commit ${i}`, i % 2 ? BOB : ALICE);
  }
  return r;
}

describe("repositories of every shape", () => {
  test("an empty repository says it has no commits", async () => {
    const r = new TestRepo();
    cleanup.push(() => r.cleanup());
    await expect(ask("history", r.dir, { path: "a.txt" })).rejects.toMatchObject({ code: "NO_COMMITS" });
    const s = await ask("status", r.dir);
    expect(s).toMatchObject({ head: null, state: "empty", commitsIndexed: 0 });
  });

  test("a folder outside any repository is NOT_A_REPO", async () => {
    const dir = tempDir();
    cleanup.push(() => runGit("/", ["--version"]) && undefined);
    await expect(ask("status", dir)).rejects.toMatchObject({ code: "NOT_A_REPO" });
    await expect(ask("status", join(dir, "missing"))).rejects.toMatchObject({ code: "NOT_A_REPO" });
  });

  test("a detached HEAD answers at the detached commit", async () => {
    const r = repoWith(4);
    r.git("checkout", "-q", "--detach", "HEAD~1");
    const b = await ask("blame", r.dir, { path: "a.txt" });
    expect(b.rev).toBe(gitHead(r.dir));
    expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual(gitBlame(r.dir, "HEAD", "a.txt").map((o) => o.sha));
    const s = await ask("status", r.dir);
    expect(s.branch).toBeNull();
  });

  test("a shallow clone is reported, and blame marks the boundary commit", async () => {
    const r = new TestRepo();
    cleanup.push(() => r.cleanup());
    for (let i = 0; i < 5; i++) {
      r.write("a.txt", lines(...Array.from({ length: i + 1 }, (_, k) => `line ${k}`)));
      r.commit(`append ${i}`);
    }
    const dir = tempDir();
    cleanup.push(() => runGit("/", ["--version"]) && undefined);
    runGit(dir, ["clone", "-q", "--depth", "2", `file://${r.dir}`, "clone"]);
    const clone = join(dir, "clone");
    const h = await ask("history", clone, { path: "a.txt" });
    expect(h.commits.length).toBe(2);
    const s = await ask("status", clone);
    expect(s.shallow).toBe(true);
    expect(s.commitsIndexed).toBe(2);
    const b = await ask("blame", clone, { path: "a.txt" });
    expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual(gitBlame(clone, "HEAD", "a.txt").map((o) => o.sha));
    // git's porcelain says "boundary" under the header of each commit where the shallow history stops.
    const porcelain = runGit(clone, ["blame", "--porcelain", "a.txt"]);
    const gitBoundary = [...porcelain.matchAll(/^([0-9a-f]{40}) \d+ \d+[^\n]*\n(?:[a-z-]+ [^\n]*\n)*?boundary$/gm)].map((m) => m[1]!.slice(0, 12));
    expect(gitBoundary.length).toBeGreaterThan(0);
    expect(b.boundary).toEqual(gitBoundary);
    for (const sha of b.boundary) expect(b.commits[sha]).toHaveLength(3);
  });

  test("a submodule entry is not mistaken for a file", async () => {
    const sub = repoWith(1);
    const r = repoWith(1);
    runGit(r.dir, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "vendor/sub"]);
    r.commit("Add submodule");
    await expect(ask("blame", r.dir, { path: "vendor/sub" })).rejects.toMatchObject({ code: "NOT_A_FILE" });
    const hs = await ask("hotspots", r.dir);
    expect(hs.results.some((x: any) => x.path === "vendor/sub")).toBe(false);
    const c = await ask("contributors", r.dir);
    expect(c.totalLines).toBe(1 + Number(r.git("show", "HEAD:.gitmodules").split("\n").length - 1));
  });

  test("a binary file cannot be blamed, and says so", async () => {
    const r = repoWith(1);
    r.write("img.bin", new Uint8Array([1, 0, 2, 0, 3]));
    r.commit("Add binary");
    await expect(ask("blame", r.dir, { path: "img.bin" })).rejects.toMatchObject({ code: "BINARY_FILE" });
    await expect(ask("intent", r.dir, { path: "img.bin", startLine: 1, endLine: 1 })).rejects.toMatchObject({ code: "BINARY_FILE" });
  });

  test("a large text file (200,000 lines) is blamed correctly", async () => {
    const r = new TestRepo();
    cleanup.push(() => r.cleanup());
    const big = Array.from({ length: 200_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n") + "\n";
    r.write("big.txt", big);
    r.commit("Big file");
    r.write("big.txt", big.replace("line 100000 ", "LINE 100000 "));
    const second = r.commit("Touch one line", BOB);
    const b = await ask("blame", r.dir, { path: "big.txt", startLine: 99_999, endLine: 100_001 });
    expect(b.lines).toBe(200_000);
    expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual([b.hunks[0][2], b.hunks[0][2], second.slice(0, 12)]);
  });

  test("merges count as commits in a window but bring no files of their own", async () => {
    const r = repoWith(2);
    r.git("checkout", "-q", "-b", "topic");
    r.write("t.txt", "t\n");
    r.commit("topic work");
    r.git("checkout", "-q", "main");
    r.write("m.txt", "m\n");
    r.commit("main work");
    r.merge("topic");
    // The newest commit is the merge: a window of one commit holds it and no file.
    const hs = await ask("hotspots", r.dir, { commits: "1" });
    expect(hs.window.commits).toBe(1);
    expect(hs.results).toEqual([]);
    // cochange counts the file's own commits: the topic commit, not the merge that brought it.
    const c = await ask("cochange", r.dir, { paths: ["t.txt"], commits: "1" });
    expect(c.commits).toBe(1);
    expect(c.results).toEqual([]);
    const h = await ask("history", r.dir, { path: "t.txt" });
    expect(h.commits.map((x: any) => x.sha)).toEqual(gitLogFile(r.dir, "HEAD", "t.txt").map((e) => e.sha));
  });

  test("until can name a branch whose commits HEAD does not reach", async () => {
    const r = repoWith(2);
    r.git("checkout", "-q", "-b", "elsewhere");
    r.write("a.txt", "rewritten\n");
    const other = r.commit("elsewhere work", BOB);
    r.git("checkout", "-q", "main");
    const b = await ask("blame", r.dir, { path: "a.txt", until: "elsewhere" });
    expect(b.rev).toBe(other);
    expect(b.hunks[0][2]).toBe(other.slice(0, 12));
    const h = await ask("history", r.dir, { path: "a.txt", until: "elsewhere" });
    expect(h.commits[0].sha).toBe(other.slice(0, 12));
  });

  test(".mailmap is applied to authors everywhere, and a change to it is picked up", async () => {
    const r = repoWith(3);
    const before = await ask("history", r.dir, { path: "a.txt" });
    expect(before.commits.some((c: any) => c.author === "Alice Example")).toBe(true);
    r.write(".mailmap", "Alice Mapped <alice@mapped.example> Alice Example <alice@example.com>\n");
    const h = await ask("history", r.dir, { path: "a.txt" });
    expect(h.commits.filter((c: any) => c.author === "Alice Example")).toEqual([]);
    expect(h.commits.some((c: any) => c.author === "Alice Mapped")).toBe(true);
    const b = await ask("blame", r.dir, { path: "a.txt" });
    expect(Object.values<any>(b.commits).map(([author]) => author)).toContain("Alice Mapped");
  });
});

describe("bad input", () => {
  let r: TestRepo;
  beforeAll(() => {
    r = repoWith(2);
    r.write("dir/inner.txt", "x\n");
    r.commit("dir");
  });

  test("paths outside the repository are refused", async () => {
    await expect(ask("blame", r.dir, { path: "../etc/passwd" })).rejects.toMatchObject({ code: "PATH_OUTSIDE_REPO" });
    await expect(ask("blame", r.dir, { path: "/etc/passwd" })).rejects.toMatchObject({ code: "PATH_OUTSIDE_REPO" });
    symlinkSync("/etc", join(r.dir, "link"));
    await expect(ask("blame", r.dir, { path: "link/passwd" })).rejects.toMatchObject({ code: "PATH_OUTSIDE_REPO" });
  });

  test("a missing path, a folder, a reversed or zero range, an unknown revision", async () => {
    await expect(ask("blame", r.dir, { path: "nope.txt" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    await expect(ask("history", r.dir, { path: "nope.txt" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    await expect(ask("blame", r.dir, { path: "dir" })).rejects.toMatchObject({ code: "NOT_A_FILE" });
    await expect(ask("history", r.dir, { path: "dir" })).rejects.toMatchObject({ code: "NOT_A_FILE" });
    await expect(ask("blame", r.dir, { path: "a.txt", startLine: 2, endLine: 1 })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("blame", r.dir, { path: "a.txt", startLine: 0, endLine: 1 })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("blame", r.dir, { path: "a.txt", startLine: 1, endLine: 50 })).rejects.toMatchObject({ code: "BAD_RANGE" });
    await expect(ask("blame", r.dir, { path: "a.txt", until: "no-such-branch" })).rejects.toMatchObject({ code: "BAD_REVISION" });
    await expect(ask("blame", r.dir, { path: "a.txt", until: "--output=x" })).rejects.toMatchObject({ code: "BAD_REVISION" });
    await expect(ask("cochange", r.dir, { paths: ["a.txt"], commits: "lots" })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("cochange", r.dir, { paths: ["a.txt"], since: "not a date at all" })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("history", r.dir, { path: "a.txt", limit: "many" })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("history", r.dir, { path: "a.txt", bogus: 1 })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("nonsense", r.dir)).rejects.toMatchObject({ code: "UNKNOWN_QUESTION" });
  });

  test("a folder with no files is PATH_NOT_FOUND for hotspots and contributors; a path only in the work tree says it is not committed", async () => {
    for (const q of ["hotspots", "contributors"]) await expect(ask(q, r.dir, { path: "nowhere" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    expect((await ask("hotspots", r.dir, { path: "dir" })).results.map((x: any) => x.path)).toEqual(["dir/inner.txt"]);
    r.write("draft.txt", "not yet\n").write("drafts/one.txt", "not yet\n");
    // blame and intent read the file on disk: all of it is not committed.
    expect((await ask("blame", r.dir, { path: "draft.txt" })).hunks).toEqual([[1, 1, null]]);
    expect((await ask("intent", r.dir, { path: "draft.txt", startLine: 1 })).uncommitted).toEqual([[1, 1]]);
    for (const [q, path] of [["history", "draft.txt"], ["cochange", "draft.txt"], ["hotspots", "drafts"], ["contributors", "drafts"]] as const) {
      const err = await ask(q, r.dir, { ...(q === "cochange" ? { paths: [path] } : { path }) }).catch((e) => e);
      expect({ q, code: err.code, committed: /is not committed/.test(err.message) }).toEqual({ q, code: "PATH_NOT_FOUND", committed: true });
    }
    r.remove("draft.txt").remove("drafts");
  });
});

test("LORE_MAX_COMMITS caps the history indexed, and status says so", async () => {
  const r = new TestRepo();
  cleanup.push(() => r.cleanup());
  for (let i = 0; i < 6; i++) {
    r.write("a.txt", `v${i}\n`);
    r.commit(`c${i}`);
  }
  process.env.LORE_MAX_COMMITS = "3";
  try {
    const h = await ask("history", r.dir, { path: "a.txt" });
    expect(h.commits.length).toBe(3);
    const s = await ask("status", r.dir);
    expect(s.maxCommits).toBe(3);
    expect(s.commitsIndexed).toBe(3);
  } finally {
    delete process.env.LORE_MAX_COMMITS;
  }
});
