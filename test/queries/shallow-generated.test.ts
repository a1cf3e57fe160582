/** A shallow clone of a small history with a merge: where history stops is said, and nothing before it is credited to the boundary. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ask, isolateHome } from "../helpers/lore.ts";
import { ALICE, BOB, CAROL, lines, runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";

const QUESTIONS: [string, Record<string, unknown>][] = [
  ["blame", { path: "a.txt" }],
  ["intent", { path: "a.txt", startLine: 1, endLine: 5 }],
  ["history", { path: "a.txt" }],
  ["history", { path: "a.txt", lines: "1,5" }],
  ["log", {}],
  ["search", { query: "edit" }],
  ["search", { query: "line", code: true, oldest: true }],
  ["cochange", { paths: ["a.txt"] }],
  ["hotspots", {}],
  ["contributors", {}],
  ["owners", {}],
];

let full: TestRepo;
let clone: string;
let dir: string;
let boundary: string[];

/** git blame's boundary lines (porcelain `boundary` under a commit's header, `^` in the default output). */
function boundaryLines(repo: string, path: string): number[] {
  return runGit(repo, ["blame", "-s", path])
    .split("\n")
    .filter(Boolean)
    .flatMap((l, i) => (l.startsWith("^") ? [i + 1] : []));
}

const day = (repo: string, sha: string) => new Date(Number(runGit(repo, ["show", "-s", "--format=%at", sha]).trim()) * 1000).toISOString().slice(0, 10);

beforeAll(() => {
  isolateHome();
  full = new TestRepo();
  full.write("a.txt", lines("one", "two", "three", "four", "five")).write("old.txt", lines("old")).commit("root", ALICE);
  full.write("a.txt", lines("ONE", "two", "three", "four", "five")).commit("edit one", BOB);
  full.git("checkout", "-q", "-b", "side");
  full.write("b.txt", lines("b")).commit("add b", CAROL);
  full.git("checkout", "-q", "main");
  full.write("old.txt", lines("old", "older")).commit("edit old", ALICE);
  full.merge("side");
  full.write("new.txt", lines("new line")).write("a.txt", lines("ONE", "two", "three", "four", "FIVE line")).commit("add new, edit five", BOB);
  dir = tempDir();
  // Depth 3 from the tip: the tip, the merge, and both its parents, whose parents are cut: two boundary commits.
  runGit(dir, ["clone", "-q", "--depth", "3", `file://${full.dir}`, "clone"]);
  clone = join(dir, "clone");
  boundary = readFileSync(join(clone, ".git", "shallow"), "utf8").split("\n").filter(Boolean);
});

afterAll(() => {
  full.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("a shallow clone with two boundary commits", () => {
  test("the clone's shallow file lists both sides of the merge", () => {
    expect(boundary.length).toBe(2);
  });

  test("every question whose facts reach the boundary names the boundary commits git lists, with their days", async () => {
    for (const [name, input] of QUESTIONS) {
      const a = await ask(name, clone, input);
      expect({ name, input, stops: a.historyStops?.get }).toEqual({ name, input, stops: "git fetch --unshallow, or lore index import FILE|URL" });
      for (const [sha, d] of Object.entries(a.historyStops.at as Record<string, string>)) {
        const whole = boundary.find((b) => b.startsWith(sha));
        expect(whole).toBeDefined();
        expect(d).toBe(day(clone, whole!));
      }
    }
  });

  test("a log cut by its limit before the boundary says nothing of it", async () => {
    const a = await ask("log", clone, { limit: 1 });
    expect(a.truncated).toBe(true);
    expect(a.historyStops).toBeUndefined();
  });

  test("blame keeps git's commits, and names the boundary its ^ lines are pinned on", async () => {
    const b = await ask("blame", clone, { path: "a.txt" });
    const marked = boundaryLines(clone, "a.txt");
    expect(marked).toEqual([1, 2, 3, 4]);
    const pinned = new Set(b.hunks.filter((h: [number, number, string]) => h[0] <= 4).map((h: [number, number, string]) => h[2]));
    expect(Object.keys(b.historyStops.at).sort()).toEqual([...pinned].map(String).sort());
  });

  test("intent puts the boundary's lines in beforeHistory, and gives no boundary commit as a reason", async () => {
    const i = await ask("intent", clone, { path: "a.txt", startLine: 1, endLine: 5 });
    expect(i.beforeHistory).toEqual([[1, 4]]);
    expect(i.commits.map((c: { sha: string; lines: unknown }) => [c.sha, c.lines])).toEqual([[runGit(clone, ["rev-parse", "--short=12", "HEAD"]).trim(), [[5, 5]]]]);
    for (const c of i.commits) expect(boundary.some((b) => b.startsWith(c.sha))).toBe(false);
  });

  test("a history row of a boundary commit is marked, with no A and no counts; a file added above the boundary keeps its A", async () => {
    const h = await ask("history", clone, { path: "a.txt" });
    const git = runGit(clone, ["log", "--follow", "--format=%h", "--abbrev=12", "--", "a.txt"]).split("\n").filter(Boolean);
    expect(h.commits.map((c: { sha: string }) => c.sha)).toEqual(git);
    for (const c of h.commits) {
      const isBoundary = boundary.some((b) => b.startsWith(c.sha));
      expect(c.boundary === true).toBe(isBoundary);
      if (isBoundary) expect([c.status, c.additions, c.deletions]).toEqual([undefined, null, null]);
    }
    const added = await ask("history", clone, { path: "new.txt" });
    expect(added.commits).toHaveLength(1);
    expect(added.commits[0].status).toBe("A");
    expect(added.historyStops).toBeUndefined();
  });

  test("contributors and owners count the boundary's lines apart, under nobody's name", async () => {
    const files = runGit(clone, ["ls-files"]).split("\n").filter(Boolean);
    const before = files.reduce((n, f) => n + boundaryLines(clone, f).length, 0);
    const c = await ask("contributors", clone);
    expect(c.beforeHistory).toBe(before);
    expect(c.totalLines - c.beforeHistory).toBe(c.results.reduce((n: number, r: { lines: number }) => n + r.lines, 0));
    // Bob wrote the one line above the boundary that survives in a.txt, and new.txt's.
    expect(c.results.map((r: { author: string; lines: number }) => [r.author, r.lines])).toEqual([[BOB.name, 2]]);
    const o = await ask("owners", clone);
    expect(o.beforeHistory).toBe(before);
    expect(o.authors.map((a: { author: string; lines: number }) => [a.author, a.lines])).toEqual([[BOB.name, 2]]);
  });

  test("review puts rewritten lines from before the boundary apart, with no commit, fix or person for them", async () => {
    const a = join(clone, "a.txt");
    const was = readFileSync(a, "utf8");
    expect(boundaryLines(clone, "a.txt")).toContain(2);
    writeFileSync(a, was.replace("two\n", "TWO\n"));
    try {
      const r = await ask("review", clone);
      expect(r.files.map((f: { path: string; beforeHistory?: unknown; rewrites?: unknown }) => [f.path, f.beforeHistory, f.rewrites])).toEqual([["a.txt", [[2, 2]], undefined]]);
      expect([r.commits, r.people]).toEqual([{}, []]);
      expect(Object.keys(r.historyStops.at).every((sha) => boundary.some((b) => b.startsWith(sha)))).toBe(true);
    } finally {
      writeFileSync(a, was);
    }
  });

  test("compare across a side branch that stops at the boundary says so; its commits are git log's", async () => {
    const c = await ask("compare", clone, { base: "HEAD~2" });
    const git = runGit(clone, ["log", "--format=%h", "--abbrev=12", "HEAD~2..HEAD"]).split("\n").filter(Boolean);
    expect(c.commits.map((x: { sha: string }) => x.sha)).toEqual(git);
    expect(c.ahead).toBe(git.length);
    const side = git.filter((sha) => boundary.some((b) => b.startsWith(sha)));
    expect(side).toHaveLength(1);
    expect(Object.keys(c.historyStops.at)).toEqual(side);
    expect(c.commits.find((x: { sha: string }) => x.sha === side[0]).boundary).toBe(true);
    expect((await ask("compare", clone, { base: "HEAD~1" })).historyStops).toBeUndefined();
  });

  test("a code search oldest first marks the boundary commit and gives no diff of it", async () => {
    const s = await ask("search", clone, { query: "two", code: true, oldest: true });
    expect(s.results[0].boundary).toBe(true);
    expect(s.diff).toBeUndefined();
  });

  test("the full clone, whose root commit git blame marks as boundary too, says nothing of where history stops", async () => {
    for (const [name, input] of QUESTIONS) {
      const a = await ask(name, full.dir, input);
      expect({ name, input, stops: a.historyStops, before: a.beforeHistory }).toEqual({ name, input, stops: undefined, before: undefined });
    }
    const b = await ask("blame", full.dir, { path: "a.txt" });
    expect(b.boundary?.length).toBe(1);
    const h = await ask("history", full.dir, { path: "a.txt" });
    expect(h.commits[h.commits.length - 1].status).toBe("A");
  });

  test("after git fetch --unshallow the answers say nothing of where history stopped", async () => {
    const deep = join(dir, "deep");
    runGit(dir, ["clone", "-q", "--depth", "1", `file://${full.dir}`, "deep"]);
    expect((await ask("owners", deep)).historyStops).toBeDefined();
    runGit(deep, ["fetch", "-q", "--unshallow"]);
    const o = await ask("owners", deep);
    expect(o.historyStops).toBeUndefined();
    expect(o.beforeHistory).toBeUndefined();
    expect((await ask("history", deep, { path: "a.txt" })).historyStops).toBeUndefined();
  });
});
