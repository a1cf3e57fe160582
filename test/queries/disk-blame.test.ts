/** blame of the file on disk, checked against git blame -- PATH: edits, the staging area, renames, copies, deletions and what stands where a file was. */
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useDiskRepo } from "../helpers/disk-repo.ts";
import { expectBlameLikeGit, gitDirHash } from "../helpers/disk-truth.ts";
import { lines, TestRepo } from "../helpers/git-repo.ts";
import { gitBlame, short } from "../helpers/git-truth.ts";
import { ask } from "../helpers/lore.ts";

let repo: TestRepo;
const { reset, edit } = useDiskRepo((r) => (repo = r));

describe("blame of the file on disk", () => {
  test("a clean file is answered at HEAD exactly as before, without a worktree key", async () => {
    reset();
    const r = await expectBlameLikeGit(repo.dir, "src/app.js");
    expect(r.worktree).toBeUndefined();
    expect(r).toEqual(await ask("blame", repo.dir, { path: "src/app.js", until: "HEAD" }));
  });

  test("lines inserted, changed and deleted on disk are numbered as on disk, new ones not committed", async () => {
    reset();
    edit("src/app.js", (ls) => ["// header", "// two", ...ls.slice(0, 7), "changed 8", ...ls.slice(8, 14), ...ls.slice(17)]);
    const r = await expectBlameLikeGit(repo.dir, "src/app.js");
    expect(r.worktree).toBe(true);
    expect(r.rev).toBe(repo.head());
    expect(r.hunks[0]).toEqual([1, 2, null]);
  });

  test("a last line without its newline, and a file emptied on disk", async () => {
    reset();
    const full = join(repo.dir, "src/app.js");
    writeFileSync(full, readFileSync(full, "utf8").replace(/line 30 v1\n$/, "line 30 v1\nno newline at the end"));
    await expectBlameLikeGit(repo.dir, "src/app.js");
    writeFileSync(full, "");
    expect(await ask("blame", repo.dir, { path: "src/app.js" })).toMatchObject({ lines: 0, range: [0, 0], hunks: [], worktree: true });
    await expect(ask("intent", repo.dir, { path: "src/app.js", startLine: 1 })).rejects.toMatchObject({ code: "BAD_RANGE" });
  });

  test("a file an editor keeps saving while lore reads it: each answer is one whole version's, as git blame says of it", async () => {
    reset();
    const full = join(repo.dir, "src/app.js");
    const versions = [readFileSync(full, "utf8").replace("line 3 v1\n", "line 3 v1\nsaved A\n"), "saved B\nsaved B too\n" + readFileSync(full, "utf8")];
    const expected = new Map<number, any>();
    for (const v of versions) {
      writeFileSync(full, v);
      const r = await expectBlameLikeGit(repo.dir, "src/app.js");
      expected.set(r.lines, r.hunks);
    }
    expect(expected.size).toBe(2);
    for (const [i, v] of versions.entries()) writeFileSync(join(repo.dir, `.git/v${i}`), v);
    // Saves as editors do: a new file renamed over the old one, as fast as the shell goes.
    const writer = spawn("bash", ["-c", `while :; do cp .git/v0 .git/tmp && mv .git/tmp src/app.js; cp .git/v1 .git/tmp && mv .git/tmp src/app.js; done`], { cwd: repo.dir, stdio: "ignore" });
    try {
      for (let i = 0; i < 30; i++) {
        const r = await ask("blame", repo.dir, { path: "src/app.js" }).catch((e) => e);
        if (r instanceof Error) expect(r.message).toContain("kept changing");
        else expect({ lines: r.lines, hunks: r.hunks }).toEqual({ lines: r.lines, hunks: expected.get(r.lines) });
        // review reads the work tree through git diff: an answer, or the same plain sentence.
        const v = await ask("review", repo.dir, {}).catch((e) => e);
        if (v instanceof Error) expect(v.message).toMatch(/kept changing|changed while git/);
        else expect(v.files.map((f: any) => f.path)).toEqual(["src/app.js"]);
      }
    } finally {
      writer.kill("SIGKILL");
      await new Promise((done) => writer.once("exit", done));
      for (const f of ["v0", "v1", "tmp"]) rmSync(join(repo.dir, ".git", f), { force: true });
    }
  });

  test("a binary file not in HEAD is BINARY_FILE", async () => {
    reset();
    repo.write("blob.bin", Buffer.from([1, 0, 2, 10, 3]));
    await expect(ask("blame", repo.dir, { path: "blob.bin" })).rejects.toMatchObject({ code: "BINARY_FILE" });
  });

  test("a range on disk past HEAD's end is valid where the file has those lines", async () => {
    reset();
    edit("src/app.js", (ls) => [...ls, "appended 31", "appended 32"]);
    await expectBlameLikeGit(repo.dir, "src/app.js", { startLine: 25, endLine: 32 });
    const r = await ask("blame", repo.dir, { path: "src/app.js", startLine: 31, endLine: 32 });
    expect(r.hunks).toEqual([[31, 32, null]]);
    expect(r.commits).toEqual({});
    await expect(ask("blame", repo.dir, { path: "src/app.js", startLine: 31, endLine: 32, until: "HEAD" })).rejects.toMatchObject({ code: "BAD_RANGE" });
  });

  test("staged and unstaged edits mixed are one file on disk, as git blame sees it", async () => {
    reset();
    edit("src/app.js", (ls) => ["staged top", ...ls]);
    repo.git("add", "src/app.js");
    edit("src/app.js", (ls) => [...ls.slice(0, 15), "unstaged middle", ...ls.slice(16)]);
    await expectBlameLikeGit(repo.dir, "src/app.js");
  });

  test("until HEAD answers at the commit, ignoring the disk", async () => {
    reset();
    edit("src/app.js", (ls) => ["new first", ...ls]);
    const r = await ask("blame", repo.dir, { path: "src/app.js", until: "HEAD" });
    expect(r.worktree).toBeUndefined();
    expect(r.lines).toBe(30);
    const truth = gitBlame(repo.dir, "HEAD", "src/app.js");
    expect(r.hunks[0][2]).toBe(truth[0]!.sha);
  });

  test("a mode change alone is no difference", async () => {
    reset();
    chmodSync(join(repo.dir, "src/app.js"), 0o755);
    const r = await ask("blame", repo.dir, { path: "src/app.js" });
    expect(r.worktree).toBeUndefined();
  });

  test("an untracked file is all uncommitted; a staged new one too", async () => {
    reset();
    repo.write("fresh.txt", lines("a", "b", "c"));
    const before = gitDirHash(repo.dir);
    const r = await ask("blame", repo.dir, { path: "fresh.txt" });
    expect(gitDirHash(repo.dir)).toBe(before);
    expect(r).toMatchObject({ path: "fresh.txt", lines: 3, range: [1, 3], hunks: [[1, 3, null]], commits: {}, worktree: true });
    repo.git("add", "fresh.txt");
    await expectBlameLikeGit(repo.dir, "fresh.txt");
  });

  test("a staged rename keeps the source's commits, as git blame follows it", async () => {
    reset();
    repo.git("mv", "moved.txt", "renamed.txt");
    edit("renamed.txt", (ls) => [...ls.slice(0, 3), "inserted", ...ls.slice(3)]);
    const r = await expectBlameLikeGit(repo.dir, "renamed.txt");
    expect(r.hunks[0]).toEqual([1, 3, short(repo.git("rev-list", "--max-parents=0", "HEAD").trim()), "moved.txt", 1]);
  });

  test("a file taken out of the staging area (git rm --cached) but edited on disk is blamed against HEAD, as git blame does", async () => {
    reset();
    repo.git("rm", "-q", "--cached", "moved.txt");
    edit("moved.txt", (ls) => [...ls.slice(0, 6), "edited", ...ls.slice(6)]);
    const r = await expectBlameLikeGit(repo.dir, "moved.txt");
    expect(r.hunks).toContainEqual([7, 7, null]);
  });

  test("an unstaged rename is a new file (git blame knows no such path)", async () => {
    reset();
    repo.git("mv", "moved.txt", "renamed.txt");
    repo.git("reset", "-q");
    const r = await ask("blame", repo.dir, { path: "renamed.txt" });
    expect(r.hunks).toEqual([[1, 12, null]]);
  });

  test("a staged copy is not followed (git blame without -C does not)", async () => {
    reset();
    writeFileSync(join(repo.dir, "copy.txt"), readFileSync(join(repo.dir, "moved.txt")));
    repo.git("add", "copy.txt");
    await expectBlameLikeGit(repo.dir, "copy.txt");
  });

  test("a file deleted on disk is answered at HEAD; a path neither on disk nor in HEAD is PATH_NOT_FOUND", async () => {
    reset();
    rmSync(join(repo.dir, "moved.txt"));
    const r = await ask("blame", repo.dir, { path: "moved.txt" });
    expect(r.worktree).toBeUndefined();
    expect(r.lines).toBe(12);
    await expect(ask("blame", repo.dir, { path: "nowhere.txt" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
  });

  test("a file replaced by a folder is answered at HEAD; by a symlink, as git blame reads it (the link's target name)", async () => {
    reset();
    rmSync(join(repo.dir, "moved.txt"));
    mkdirSync(join(repo.dir, "moved.txt"));
    writeFileSync(join(repo.dir, "moved.txt", "inner"), "x\n");
    const r = await ask("blame", repo.dir, { path: "moved.txt" });
    expect(r.lines).toBe(12);
    expect(r.worktree).toBeUndefined();
    reset();
    rmSync(join(repo.dir, "moved.txt"), { recursive: true, force: true });
    symlinkSync("src/app.js", join(repo.dir, "moved.txt"));
    await expectBlameLikeGit(repo.dir, "moved.txt");
  });
});
