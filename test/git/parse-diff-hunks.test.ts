/** The review's one git diff, parsed from real git output: status, +/-, modes, deleted ranges, odd names, type changes, unmerged paths. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, symlinkSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { parseDiffWithHunks, quoted } from "../../src/git/parse-diff-hunks.ts";
import { BOB, TestRepo, lines, runGitBytes } from "../helpers/git-repo.ts";

const ODD = ["tab\there.txt", 'quote".txt', "new\nline.txt", "ünï.txt", "diff --git a b.txt"];
let r: TestRepo;

const diff = (...args: string[]) => parseDiffWithHunks(runGitBytes(r.dir, ["-c", "core.quotepath=off", "-c", "diff.autoRefreshIndex=false", "diff", "--raw", "--numstat", "-p", "-U0", "--inter-hunk-context=0", "-z", "-M", "--no-ext-diff", "--no-textconv", ...args, "--"]));

beforeAll(() => {
  r = new TestRepo();
  r.write("a.txt", lines(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)).write("bin.dat", new Uint8Array([0, 1, 2])).write("same.dat", new Uint8Array([0, 7])).write("gone.txt", lines("x", "y")).write("link", "a.txt\n").write("moved.txt", lines(...Array.from({ length: 20 }, (_, i) => `line ${i}`))).write("mode.sh", "echo\n");
  for (const n of ODD) r.write(n, lines("odd", n));
  r.commit("Start", BOB);
});

afterAll(() => r.cleanup());

test("each file once with git's status, +/- and the old side's deleted ranges; renames, deletions, binaries, modes, type changes, odd names", () => {
  r.write("a.txt", lines(1, "two", 3, 4, 6, 7, 8, 9, 10, 11)).write("bin.dat", new Uint8Array([0, 9]));
  r.git("mv", "moved.txt", "renamed.txt");
  r.write("renamed.txt", lines(...Array.from({ length: 20 }, (_, i) => (i === 4 ? "changed" : `line ${i}`))));
  r.remove("gone.txt").remove("link");
  symlinkSync("a.txt", join(r.dir, "link"));
  chmodSync(join(r.dir, "mode.sh"), 0o755);
  for (const n of ODD) r.write(n, lines("odd!", n));
  // Touched, content the same: git lists it in --raw only (and a binary in --numstat too), never in the patch.
  utimesSync(join(r.dir, "same.dat"), new Date(), new Date(Date.now() + 9000));
  const got = diff("HEAD").map((f) => [f.path, f.status, f.oldPath ?? "", f.additions, f.deletions, JSON.stringify(f.deleted)]);
  expect(got).toEqual([
    ["a.txt", "M", "", 2, 2, "[[2,2],[5,5]]"],
    ["bin.dat", "M", "", null, null, "[]"],
    ["diff --git a b.txt", "M", "", 1, 1, "[[1,1]]"],
    ["gone.txt", "D", "", 0, 2, "[[1,2]]"],
    ["link", "T", "", 1, 1, "[[1,1]]"],
    ["mode.sh", "M", "", 0, 0, "[]"],
    ["new\nline.txt", "M", "", 1, 1, "[[1,1]]"],
    ['quote".txt', "M", "", 1, 1, "[[1,1]]"],
    ["renamed.txt", "R", "moved.txt", 1, 1, "[[5,5]]"],
    ["tab\there.txt", "M", "", 1, 1, "[[1,1]]"],
    ["ünï.txt", "M", "", 1, 1, "[[1,1]]"],
  ]);
  expect(diff("HEAD").find((f) => f.path === "mode.sh")!.newMode).toBe("100755");
});

test("an unmerged path in the staging area is status U with no ranges; nothing changed is no files", () => {
  const m = new TestRepo();
  m.write("f", lines(1, 2, 3)).commit("one", BOB);
  m.git("checkout", "-q", "-b", "side");
  m.write("f", lines(1, "side", 3)).commit("side", BOB);
  m.git("checkout", "-q", "main");
  m.write("f", lines(1, "main", 3)).commit("main", BOB);
  expect(() => m.git("merge", "-q", "side")).toThrow();
  const staged = parseDiffWithHunks(runGitBytes(m.dir, ["-c", "diff.autoRefreshIndex=false", "diff", "--raw", "--numstat", "-p", "-U0", "-z", "-M", "--cached", "HEAD", "--"]));
  expect(staged.map((f) => [f.path, f.status, f.deleted])).toEqual([["f", "U", []]]);
  m.git("merge", "--abort");
  expect(parseDiffWithHunks(runGitBytes(m.dir, ["diff", "--raw", "--numstat", "-p", "-U0", "-z", "HEAD", "--"]))).toEqual([]);
  rmSync(m.dir, { recursive: true, force: true });
});

test("names are quoted as git's patch headers quote them", () => {
  expect([quoted("a/plain ü.txt"), quoted('a/q".txt'), quoted("a/t\tb"), quoted("a/\x01")]).toEqual(["a/plain ü.txt", '"a/q\\".txt"', '"a/t\\tb"', '"a/\\001"']);
});
