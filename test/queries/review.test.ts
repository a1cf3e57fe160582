/** review on small built histories: every form and edge case, checked against git blame, git log and git diff. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, CAROL, TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { cli, ask, isolateHome } from "../helpers/lore.ts";
import { repoHash } from "../helpers/repo-hash.ts";
import { short } from "../helpers/git-truth.ts";
import { deletedLines, gitIdentities, gitMessage, rewriteLines, truthLines, truthPeople } from "../helpers/review-truth.ts";

const app = (vals: Record<number, string> = {}) => lines(...Array.from({ length: 10 }, (_, i) => vals[i + 1] ?? `const a${i + 1} = ${i + 1};`));

let base: TestRepo;
let fixSha = "";

/** A fresh copy of the built repository: each test changes its own work tree. */
function copy(): TestRepo {
  const dir = join(tempDir(), "repo");
  cpSync(base.dir, dir, { recursive: true });
  return new TestRepo(dir, false);
}

async function expectLikeGit(r: TestRepo, answer: any, oldRev: string, diffArgs: string[], user?: string, paths: string[] = []) {
  const truth = deletedLines(r.dir, oldRev, diffArgs, paths);
  expect(rewriteLines(answer.files)).toEqual(truthLines(truth));
  expect(Object.keys(answer.commits).sort()).toEqual([...new Set(truth.map((d) => d.sha))].sort());
  expect(answer.people).toEqual(truthPeople(truth, user, gitIdentities(r.dir)));
  for (const [sha, message] of Object.entries(answer.fixes)) expect(message).toBe(gitMessage(r.dir, sha));
}

beforeAll(() => {
  isolateHome();
  base = new TestRepo();
  base.write("src/app.js", app()).write("src/app.test.js", lines("test 1")).write("docs/api.md", lines("# API")).write("logo.png", new Uint8Array([0x89, 0x50, 0, 1, 2, 0, 3])).write("old.txt", lines("one", "two", "three"));
  base.commit("Start", ALICE);
  base.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;" })).write("src/app.test.js", lines("test 1", "test 2"));
  fixSha = base.commit("Guard against empty input\n\nThe parser read past the end of an empty line.\n\nFixes #12", BOB);
  base.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 70;" })).write("src/app.test.js", lines("test 1", "test 2", "test 3")).write("docs/api.md", lines("# API", "a7"));
  base.commit("Tune a7 for the new prefix rules", CAROL);
  base.write("src/app.test.js", lines("test 1", "test 2", "test 3", "test 4")).write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;" }));
  base.commit("Add a9", ALICE);
  base.git("config", "user.email", "ALICE@example.com");
}, 60_000);

afterAll(() => base.cleanup());

describe("review", () => {
  test("the uncommitted work: each deleted line under the commit git blame gives it, the fix's whole message, the user left out of people", async () => {
    const r = copy();
    r.write("src/app.js", app({ 3: "let a3 = 31;", 4: "let a4 = 41;", 7: "let a7 = 71;", 9: "let a9 = 91;" }));
    const a = await ask("review", r.dir);
    expect(a.files).toEqual([{ path: "src/app.js", additions: 4, deletions: 4, rewrites: expect.any(Object) }]);
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email);
    expect(a.fixes).toEqual({ [short(fixSha)]: "Guard against empty input\n\nThe parser read past the end of an empty line.\n\nFixes #12" });
    expect(a.people.map((p: any) => p.email)).toEqual([BOB.email, CAROL.email]);
    expect(a.missing[0]).toEqual({ path: "src/app.test.js", confidence: 1, with: ["src/app.js"], why: "changed with src/app.js in 4 of its last 4 commits" });
    expect(a.missing.map((m: any) => m.path)).not.toContain("src/app.js");
    expect(a.rev).toBe(r.head());
  });

  test("--staged reviews the staging area only; the default adds unstaged edits and untracked files", async () => {
    const r = copy();
    r.write("src/app.js", app({ 3: "let a3 = 33;", 4: "let a4 = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;" }));
    r.git("add", "src/app.js");
    r.write("docs/api.md", lines("# API!", "a7")).write("notes/new.md", lines("x", "y"));
    const staged = await ask("review", r.dir, { staged: true });
    expect(staged.files.map((f: any) => f.path)).toEqual(["src/app.js"]);
    await expectLikeGit(r, staged, "HEAD", ["--cached", "HEAD"], ALICE.email);
    const all = await ask("review", r.dir);
    expect(all.files.map((f: any) => [f.path, f.status ?? "M", f.additions])).toEqual([["docs/api.md", "M", 1], ["notes/new.md", "A", 2], ["src/app.js", "M", 1]]);
    await expectLikeGit(r, all, "HEAD", ["HEAD"], ALICE.email);
  });

  test("BASE reviews what the branch changed since it left BASE, blamed at the merge base", async () => {
    const r = copy();
    const fork = r.head();
    r.git("checkout", "-q", "-b", "feature");
    r.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 44;", 7: "let a7 = 77;", 9: "let a9 = 90;" }));
    r.commit("Feature work", CAROL);
    r.git("checkout", "-q", "main");
    r.write("src/app.js", app({ 3: "let a3 = 300;", 4: "let a4 = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;" }));
    r.commit("Main moves on", BOB);
    r.git("checkout", "-q", "feature");
    const a = await ask("review", r.dir, { base: "main" });
    expect([a.base, a.mergeBase]).toEqual([r.git("rev-parse", "main").trim(), fork]);
    await expectLikeGit(r, a, fork, ["main...HEAD"], ALICE.email);
    expect(Object.keys(a.fixes)).toEqual([short(fixSha)]);
  });

  test("PATHs narrow the change to those files and folders", async () => {
    const r = copy();
    r.write("src/app.js", app({ 1: "x" })).write("docs/api.md", lines("# API", "b"));
    const a = await ask("review", r.dir, { paths: [join(r.dir, "docs")] });
    expect(a.files.map((f: any) => f.path)).toEqual(["docs/api.md"]);
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email, ["docs"]);
    const none = await ask("review", r.dir, { paths: [join(r.dir, "old.txt")] });
    expect([none.files, none.filesTotal, typeof none.note]).toEqual([[], 0, "string"]);
  });

  test("bad input: an unknown BASE, a BASE with no common history, --staged with a BASE", async () => {
    const r = copy();
    await expect(ask("review", r.dir, { base: "no-such-branch" })).rejects.toMatchObject({ code: "BAD_REVISION" });
    r.git("checkout", "-q", "--orphan", "island");
    r.write("island.txt", "alone\n");
    r.commit("An unrelated root", BOB);
    await expect(ask("review", r.dir, { base: "main" })).rejects.toMatchObject({ code: "BAD_REVISION", message: expect.stringContaining("no common history") });
    await expect(ask("review", r.dir, { base: "main", staged: true })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
  });

  test("a change of only binary files: binary: true, no +/-, no rewrites", async () => {
    const r = copy();
    r.write("logo.png", new Uint8Array([0x89, 0x50, 0, 9, 9, 0]));
    const a = await ask("review", r.dir);
    expect(a.files).toEqual([{ path: "logo.png", binary: true }]);
    expect([a.commits, a.fixes, a.people]).toEqual([{}, {}, []]);
  });

  test("a deleted file rewrites all its lines; a renamed one says oldPath and is blamed under its old name", async () => {
    const r = copy();
    r.git("rm", "-q", "old.txt");
    r.git("mv", "src/app.js", "src/main.js");
    r.write("src/main.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 7;", 9: "let a9 = 90;" }));
    const a = await ask("review", r.dir);
    expect(a.files.map((f: any) => [f.path, f.status, f.oldPath])).toEqual([["old.txt", "D", undefined], ["src/main.js", "R", "src/app.js"]]);
    expect(a.files[0].rewrites).toEqual({ [short(base.git("rev-list", "--max-parents=0", "HEAD").trim())]: [[1, 3]] });
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email);
  });

  test("mid-merge with conflict markers: answered from the disk, state merge, the file marked, nothing written", async () => {
    const r = copy();
    r.git("checkout", "-q", "-b", "other");
    r.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 700;", 9: "let a9 = 90;" }));
    r.commit("Other a7", BOB);
    r.git("checkout", "-q", "main");
    r.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 7000;", 9: "let a9 = 90;" }));
    r.commit("Main a7", CAROL);
    expect(() => r.git("merge", "-q", "other")).toThrow();
    const before = repoHash(r.dir);
    const a = await ask("review", r.dir);
    expect(repoHash(r.dir)).toBe(before);
    expect(a.state).toBe("merge");
    expect(a.note).toContain("mid-merge");
    expect(a.files).toMatchObject([{ path: "src/app.js", conflict: true, additions: 4 }]);
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email);
  });

  test("mid-rebase with conflict markers: state rebase, answered from the disk", async () => {
    const r = copy();
    r.git("checkout", "-q", "-b", "topic", "HEAD~1");
    r.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 70;", 9: "topic" }));
    r.commit("Topic a9", BOB);
    expect(() => r.git("rebase", "-q", "main")).toThrow();
    const before = repoHash(r.dir);
    const a = await ask("review", r.dir);
    expect(repoHash(r.dir)).toBe(before);
    expect([a.state, a.files[0].conflict]).toEqual(["rebase", true]);
    expect(a.note).toContain("mid-rebase");
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email);
  });

  test("nothing changed: files [] and a note; touched-but-unchanged files do not make git rewrite the index", async () => {
    const r = copy();
    utimesSync(join(r.dir, "src/app.js"), new Date(), new Date(Date.now() + 5000));
    const before = repoHash(r.dir);
    const a = await ask("review", r.dir);
    expect(repoHash(r.dir)).toBe(before);
    expect([a.files, a.filesTotal, a.truncated, a.missing, a.people]).toEqual([[], 0, false, [], []]);
    expect(a.note).toMatch(/^Nothing is changed/);
    expect((await ask("review", r.dir, { staged: true })).note).toMatch(/^Nothing is staged/);
  });

  test("people: one row a person (the same email in any case), named by their newest commit, the user left out by email in any case", async () => {
    const r = copy();
    r.write("src/app.js", app({ 3: "let a3 = 30;", 4: "let a4 = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;", 10: "bob again" }));
    r.commit("Bob, renamed", { name: "Robert Example", email: "BOB@Example.com" }, ["--date", "@1800000000 +0000"]);
    r.write("src/app.js", app({ 3: "x", 4: "y", 7: "let a7 = 70;", 9: "z", 10: "w" }));
    const a = await ask("review", r.dir);
    expect(a.people).toEqual([{ author: "Robert Example", email: "BOB@Example.com", lines: 3 }]);
    await expectLikeGit(r, a, "HEAD", ["HEAD"], ALICE.email);
  });

  test(".git-blame-ignore-revs is honoured: a reformat's lines go to the commit before it", async () => {
    const r = copy();
    r.write("src/app.js", app({ 3: "let a3  = 30;", 4: "let a4  = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;" }));
    const sweep = r.commit("Reformat", CAROL);
    r.write(".git-blame-ignore-revs", sweep + "\n");
    r.commit("Ignore the reformat", CAROL);
    r.write("src/app.js", app({ 3: "gone", 4: "let a4  = 40;", 7: "let a7 = 70;", 9: "let a9 = 90;" }));
    const a = await ask("review", r.dir);
    const owners = deletedLines(r.dir, "HEAD", ["HEAD"], [], ["--ignore-revs-file", ".git-blame-ignore-revs"]);
    expect(rewriteLines(a.files)).toEqual(truthLines(owners));
    expect(a.files[0].rewrites).toEqual({ [short(fixSha)]: [[3, 3]] });
  });

  test("the CLI prints the fixes first with their messages, then what may be missing, then whom to ask; --json is the same object", async () => {
    const r = copy();
    r.write("src/app.js", app({ 3: "let a3 = 31;", 4: "let a4 = 40;", 7: "let a7 = 71;", 9: "let a9 = 90;" }));
    const text = cli(r.dir, ["review"]);
    expect(text.code).toBe(0);
    const at = (s: string) => text.stdout.indexOf(s);
    expect(at("Fixes #12")).toBeGreaterThan(-1);
    expect(at("Guard against empty input")).toBeLessThan(at("May have missed"));
    expect(at("src/app.test.js")).toBeLessThan(at("Whom to ask"));
    expect(text.stdout.lastIndexOf(BOB.name)).toBeGreaterThan(at("Whom to ask"));
    const json = cli(r.dir, ["review", "--json", "src"]);
    expect(json.json).toEqual(await ask("review", r.dir));
    const bad = cli(r.dir, ["review", "nonsense-word", "--json"]);
    expect([bad.code, bad.json.error.code]).toEqual([1, "BAD_REVISION"]);
  });
});

describe("review's missing", () => {
  test("names at most 10 changed files in with, and says how many it goes with", async () => {
    const r = new TestRepo();
    const names = Array.from({ length: 12 }, (_, i) => `m/${String(i).padStart(2, "0")}.txt`);
    for (let round = 0; round < 3; round++) {
      for (const n of [...names, "m/partner.txt"]) r.write(n, `round ${round}\n`);
      r.commit(`Round ${round}`, BOB);
    }
    for (const n of names) r.write(n, "edited\n");
    const a = await ask("review", r.dir);
    expect(a.missing[0]).toEqual({ path: "m/partner.txt", confidence: 1, with: names.slice(0, 10), withTotal: 12, why: "changed with all 12 of your files in 3 of their last 3 commits" });
    r.cleanup();
  });
});

describe("review of 5,000 changed files", () => {
  test("continue pages every file, in git's order, nothing repeated", async () => {
    const r = new TestRepo();
    for (let i = 0; i < 120; i++) r.write(`f/${String(i).padStart(3, "0")}.txt`, `line ${i}\n`);
    r.commit("Many files", BOB);
    for (let i = 0; i < 120; i += 2) r.write(`f/${String(i).padStart(3, "0")}.txt`, `line ${i}!\n`);
    r.write("new.txt", "a\nb\n");
    const pages = [await ask("review", r.dir)];
    while (pages.at(-1).continue && pages.length < 10) pages.push(await ask("review", r.dir, { continue: pages.at(-1).continue }));
    expect(pages.map((p) => p.files.length)).toEqual([50, 11]);
    const untracked = r.git("ls-files", "--others", "--exclude-standard").split("\n").filter(Boolean);
    expect(pages.flatMap((p) => p.files.map((f: any) => f.path))).toEqual([...r.git("diff", "--name-only", "HEAD").split("\n").filter(Boolean), ...untracked].sort());
    expect(pages[1].files.at(-1)).toEqual({ path: "new.txt", additions: 2, deletions: 0, status: "A" });
    // The CLI's first page says how to go on; its next page is the files alone.
    expect(cli(r.dir, ["review"]).stdout).toContain("… 11 more files");
    const next = cli(r.dir, ["review", "--continue", pages[0].continue]).stdout.trim().split("\n");
    expect(next.map((l) => l.trim().split(/\s+/).at(-1))).toEqual(pages[1].files.map((f: any) => f.path));
    r.cleanup();
  });

  test("lists 50 a page, counts all in filesTotal, continue gives the rest in git's order", async () => {
    const r = new TestRepo();
    // One git fast-import (commit-stream.ts), not 5,000 writes and git add -A.
    r.commits((b) => {
      for (let i = 0; i < 5000; i++) b.write(`f/${String(i).padStart(4, "0")}.txt`, `line ${i}\n`);
      b.commit("Many files", BOB);
    });
    for (let i = 0; i < 5000; i++) r.write(`f/${String(i).padStart(4, "0")}.txt`, `line ${i}!\n`);
    const started = performance.now();
    const a = await ask("review", r.dir);
    const ms = performance.now() - started;
    expect([a.files.length, a.filesTotal, a.truncated, typeof a.continue]).toEqual([50, 5000, true, "string"]);
    expect(a.files[0]).toEqual({ path: "f/0000.txt", additions: 1, deletions: 1, rewrites: { [short(r.head())]: [[1, 1]] } });
    expect(a.note).toContain("first 50 files");
    // Every file changed: nothing can be missing, and saying so costs little.
    expect(a.missing).toEqual([]);
    console.log(`review of 5,000 changed files: ${ms.toFixed(0)} ms, first index included`);
    // The next pages: 50 files each, after those sent, as git diff lists them (their counts; rewrites are the first page's).
    const second = await ask("review", r.dir, { continue: a.continue });
    expect(second.files.map((f: any) => f.path)).toEqual(r.git("diff", "--name-only", "HEAD").split("\n").slice(50, 100));
    expect(second.files[0]).toEqual({ path: "f/0050.txt", additions: 1, deletions: 1 });
    // A file edited between pages: the token was made for another state of the work tree.
    r.write("f/0001.txt", "edited\nagain\n");
    await expect(ask("review", r.dir, { continue: a.continue })).rejects.toThrow(/BAD_CONTINUE|continue/);
    r.cleanup();
  }, 120_000);
});
