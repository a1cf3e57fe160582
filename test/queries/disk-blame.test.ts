import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BOB, CAROL, lines, TestRepo } from "../helpers/git-repo.ts";
import { expectBlameLikeGit, expectIntentLikeGit, expectLineHistoryLikeGit, gitDirHash } from "../helpers/disk-truth.ts";
import { gitBlame, short } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
const numbered = (from: number, to: number, tag = "v1") => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i} ${tag}`);

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("src/app.js", lines(...numbered(1, 30)));
  repo.write("notes/a b ü.txt", lines("alpha", "beta", "gamma", "delta"));
  repo.write("moved.txt", lines(...numbered(1, 12, "m")));
  repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  repo.commit("first");
  const second = numbered(1, 30);
  second[4] = "line 5 v2";
  second[19] = "line 20 v2";
  repo.write("src/app.js", lines(...second));
  repo.commit("second", BOB);
  second[9] = "line 10 v3";
  repo.write("src/app.js", lines(...second));
  repo.commit("third", CAROL);
});
afterAll(() => repo.cleanup());

/** Puts the work tree and staging area back to HEAD. */
function reset() {
  repo.git("reset", "-q", "--hard");
  repo.git("clean", "-qfd");
}

function edit(path: string, f: (ls: string[]) => string[]) {
  const full = join(repo.dir, path);
  const ls = readFileSync(full, "utf8").split("\n");
  ls.pop();
  writeFileSync(full, lines(...f(ls)));
}

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

  test("a file marked assume-unchanged or skip-worktree is read on disk, as git blame reads it (git diff trusts the staging area)", async () => {
    for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
      reset();
      repo.git("update-index", flag, "src/app.js");
      try {
        edit("src/app.js", (ls) => ["flagged top", ...ls.slice(0, 12), "flagged 13", ...ls.slice(14)]);
        expect(repo.git("-c", "diff.autoRefreshIndex=false", "diff", "HEAD", "--", "src/app.js")).toBe("");
        const r = await expectBlameLikeGit(repo.dir, "src/app.js");
        expect(r.hunks[0]).toEqual([1, 1, null]);
        await expectIntentLikeGit(repo.dir, "src/app.js", 1, 20);
        // A staged change under the flag too: git diff HEAD would show the staged version's lines.
        repo.git("update-index", flag.replace("--", "--no-"), "src/app.js");
        repo.git("add", "src/app.js");
        repo.git("update-index", flag, "src/app.js");
        edit("src/app.js", (ls) => [...ls.slice(0, 20), "after staging", ...ls.slice(20)]);
        await expectBlameLikeGit(repo.dir, "src/app.js");
      } finally {
        repo.git("update-index", flag.replace("--", "--no-"), "src/app.js");
      }
    }
  });

  test("a name with spaces and non-ASCII letters", async () => {
    reset();
    edit("notes/a b ü.txt", (ls) => [ls[0]!, "new", ...ls.slice(1)]);
    await expectBlameLikeGit(repo.dir, "notes/a b ü.txt");
  });

  test("CRLF: a committed CRLF file edited on disk, and one git stores as LF under core.autocrlf", async () => {
    reset();
    writeFileSync(join(repo.dir, "crlf.txt"), "one\r\nTWO\r\nthree\r\nfour\r\n");
    await expectBlameLikeGit(repo.dir, "crlf.txt");
    reset();
    // An LF file checked out as CRLF by autocrlf is clean to git: so it is to lore.
    repo.git("config", "core.autocrlf", "true");
    try {
      writeFileSync(join(repo.dir, "moved.txt"), readFileSync(join(repo.dir, "moved.txt"), "utf8").replace(/\n/g, "\r\n"));
      const clean = await ask("blame", repo.dir, { path: "moved.txt" });
      expect(clean.worktree).toBeUndefined();
      writeFileSync(join(repo.dir, "moved.txt"), "top\r\n" + readFileSync(join(repo.dir, "moved.txt"), "utf8"));
      await expectBlameLikeGit(repo.dir, "moved.txt");
    } finally {
      repo.git("config", "--unset", "core.autocrlf");
    }
  });

  test("CRLF: a file committed with CRLF stays clean under core.autocrlf (git's safer autocrlf leaves it alone), and an edit is blamed as git blame says", async () => {
    reset();
    repo.git("config", "core.autocrlf", "true");
    try {
      const clean = await expectBlameLikeGit(repo.dir, "crlf.txt");
      expect(clean.worktree).toBeUndefined();
      writeFileSync(join(repo.dir, "crlf.txt"), "zero\r\none\r\ntwo\r\nthree\r\n");
      const r = await expectBlameLikeGit(repo.dir, "crlf.txt");
      expect(r.hunks).toContainEqual([1, 1, null]);
    } finally {
      repo.git("config", "--unset", "core.autocrlf");
    }
  });

  test("CRLF: a CRLF file git now reads as text (eol conversion) differs from HEAD as git blame says, though its bytes are HEAD's", async () => {
    reset();
    const attributes = join(repo.dir, ".git", "info", "attributes");
    mkdirSync(join(repo.dir, ".git", "info"), { recursive: true });
    writeFileSync(attributes, "crlf.txt text\n");
    try {
      const r = await expectBlameLikeGit(repo.dir, "crlf.txt");
      expect(r.worktree).toBe(true);
    } finally {
      rmSync(attributes);
    }
    const clean = await expectBlameLikeGit(repo.dir, "crlf.txt");
    expect(clean.worktree).toBeUndefined();
  });

  // Root reads any file whatever its mode; without the capabilities that let it (dropped by setpriv) it is refused as anyone else.
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));
  test.skipIf(!setpriv)("a file the process may not read is a clear error, not a wrong answer", () => {
    reset();
    const file = join(repo.dir, "moved.txt");
    writeFileSync(file, "changed\n");
    chmodSync(file, 0o000);
    try {
      const drop = "-dac_override,-dac_read_search";
      const r = spawnSync(setpriv!, [`--bounding-set=${drop}`, `--inh-caps=${drop}`, "--", process.execPath, join(import.meta.dir, "..", "..", "src", "main.ts"), "blame", "moved.txt", "--json"], {
        cwd: repo.dir,
        env: { ...process.env, LORE_NO_DAEMON: "1", NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(r.status).not.toBe(0);
      expect(r.stdout + r.stderr).toContain("cannot read moved.txt on disk");
      expect(r.stdout + r.stderr).not.toContain("    at ");
    } finally {
      chmodSync(file, 0o644);
    }
  });

  test("a FIFO where the file was is a clear error (git blame cannot read it either)", async () => {
    reset();
    rmSync(join(repo.dir, "moved.txt"));
    spawnSync("mkfifo", [join(repo.dir, "moved.txt")]);
    await expect(ask("blame", repo.dir, { path: "moved.txt" })).rejects.toMatchObject({ code: "NOT_A_FILE" });
  });
});

describe("intent of the file on disk", () => {
  test("commits carry on-disk line numbers and uncommitted lists the rest", async () => {
    reset();
    edit("src/app.js", (ls) => ["// header", ...ls.slice(0, 9), "changed 10", ...ls.slice(10, 18), ...ls.slice(20)]);
    const r = await expectIntentLikeGit(repo.dir, "src/app.js", 1, 25);
    expect(r.worktree).toBe(true);
    expect(r.uncommitted).toEqual([[1, 1], [11, 11]]);
    for (const c of r.commits) expect(c.message).toBe(repo.git("log", "-1", "--format=%B", c.sha).replace(/\n+$/, ""));
  });

  test("a clean file has neither worktree nor uncommitted; a staged rename keeps its commits", async () => {
    reset();
    const clean = await expectIntentLikeGit(repo.dir, "src/app.js", 3, 12);
    expect(clean.worktree).toBeUndefined();
    repo.git("mv", "moved.txt", "renamed.txt");
    edit("renamed.txt", (ls) => [...ls, "tail"]);
    await expectIntentLikeGit(repo.dir, "renamed.txt", 1, 13);
  });
});

describe("history -L of the file on disk", () => {
  test("on-disk lines map to the smallest HEAD range covering their committed lines, answered as git log -L of it", async () => {
    reset();
    edit("src/app.js", (ls) => ["// header", "// two", ...ls.slice(0, 9), "changed 10", ...ls.slice(10, 18), ...ls.slice(20), "tail"]);
    for (const [a, b] of [[1, 5], [3, 12], [10, 14], [18, 25], [27, 29]] as const) await expectLineHistoryLikeGit(repo.dir, "src/app.js", a, b);
    const r = await ask("history", repo.dir, { path: "src/app.js", lines: "1,4" });
    expect(r).toMatchObject({ range: [1, 4], headRange: [1, 2], uncommitted: [[1, 2]], worktree: true });
  });

  test("lines all uncommitted have no commits; until HEAD answers at the commit", async () => {
    reset();
    edit("src/app.js", (ls) => ["new 1", "new 2", ...ls]);
    const r = await expectLineHistoryLikeGit(repo.dir, "src/app.js", 1, 2);
    expect(r).toMatchObject({ commits: [], uncommitted: [[1, 2]], truncated: false });
    const atHead = await ask("history", repo.dir, { path: "src/app.js", lines: "1,2", until: "HEAD" });
    expect(atHead.worktree).toBeUndefined();
    expect(atHead.commits.map((c: any) => c.sha)).toEqual(gitLineLogShasAt(1, 2));
    await expect(ask("history", repo.dir, { path: "src/app.js", lines: "30,33" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    expect((await ask("history", repo.dir, { path: "src/app.js", lines: "31,32" })).headRange).toEqual([29, 30]);
  });

  test("a staged rename follows the source's lines in HEAD, as git log -L of the source", async () => {
    reset();
    repo.git("mv", "moved.txt", "renamed.txt");
    edit("renamed.txt", (ls) => ["top", ...ls]);
    const r = await ask("history", repo.dir, { path: "renamed.txt", lines: "1,6" });
    expect(r).toMatchObject({ range: [1, 6], headRange: [1, 5], uncommitted: [[1, 1]], worktree: true });
    const truth = repo.git("log", "-L1,5:moved.txt", "--format=%x1e%H", "--no-patch", "HEAD").split("\x1e").slice(1).map((x) => x.trim().slice(0, 12));
    expect(r.commits.map((c: any) => c.sha)).toEqual(truth);
  });

  test("an untracked file: all uncommitted; a clean one as before", async () => {
    reset();
    repo.write("fresh.txt", lines("a", "b", "c"));
    expect(await ask("history", repo.dir, { path: "fresh.txt", lines: "2,3" })).toMatchObject({ range: [2, 3], commits: [], uncommitted: [[2, 3]], worktree: true });
    const clean = await ask("history", repo.dir, { path: "src/app.js", lines: "4,6" });
    expect(clean.worktree).toBeUndefined();
    expect(clean.commits.map((c: any) => c.sha)).toEqual(gitLineLogShasAt(4, 6));
  });
});

function gitLineLogShasAt(a: number, b: number): string[] {
  return repo.git("log", `-L${a},${b}:src/app.js`, "--format=%x1e%H", "--no-patch", "HEAD").split("\x1e").slice(1).map((r) => r.trim().slice(0, 12));
}

describe("a merge in progress", () => {
  test("lines the merged branch brought keep its commits, as git blame of the work tree gives them; a conflict's markers are not committed", async () => {
    reset();
    const base = repo.git("rev-parse", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "topic");
    edit("src/app.js", (ls) => [...ls.slice(0, 25), "topic line 26", "topic line 27", ...ls.slice(27)]);
    repo.write("topic-only.txt", lines("from", "topic"));
    repo.commit("topic work", BOB);
    repo.git("checkout", "-q", "main");
    edit("src/app.js", (ls) => ["main top", ...ls]);
    repo.commit("main work", CAROL);
    try {
      repo.git("merge", "--no-commit", "--no-ff", "-q", "topic");
      const r = await expectBlameLikeGit(repo.dir, "src/app.js");
      expect(r.worktree).toBe(true);
      expect(r.hunks.some((h: any[]) => h[2] === short(repo.git("rev-parse", "topic").trim()))).toBe(true);
      await expectBlameLikeGit(repo.dir, "topic-only.txt");
      await expectIntentLikeGit(repo.dir, "src/app.js", 20, 31);
      // git log -L has no work tree: the lines the merge brought are not HEAD's, so history calls them uncommitted.
      const h = await expectLineHistoryLikeGit(repo.dir, "src/app.js", 24, 30);
      expect(h.uncommitted).toEqual([[27, 28]]);
      // The merge's own edit on top of it: not committed.
      edit("src/app.js", (ls) => [...ls.slice(0, 10), "resolving", ...ls.slice(10)]);
      await expectBlameLikeGit(repo.dir, "src/app.js");
      // reset --hard ends the merge (MERGE_HEAD goes): the file is HEAD's again.
      repo.git("reset", "-q", "--hard");
      expect((await ask("blame", repo.dir, { path: "src/app.js" })).worktree).toBeUndefined();
      // A conflict: both sides changed line 5.
      repo.git("checkout", "-q", "-b", "other", base);
      edit("src/app.js", (ls) => [...ls.slice(0, 4), "other 5", ...ls.slice(5)]);
      repo.commit("other work", BOB);
      repo.git("checkout", "-q", "main");
      edit("src/app.js", (ls) => [...ls.slice(0, 5), "main 5", ...ls.slice(6)]);
      repo.commit("main again", CAROL);
      spawnSync("git", ["merge", "-q", "other"], { cwd: repo.dir });
      await expectBlameLikeGit(repo.dir, "src/app.js");
    } finally {
      spawnSync("git", ["merge", "--abort"], { cwd: repo.dir });
      repo.git("checkout", "-q", "main");
      repo.git("reset", "-q", "--hard", base);
      spawnSync("git", ["branch", "-q", "-D", "topic", "other"], { cwd: repo.dir });
    }
  });
});

describe("the file on disk in a linked worktree", () => {
  test("an edit in a worktree inside the checkout is blamed as git blame in that worktree says; the main checkout's file is its own", async () => {
    reset();
    const wt = join(repo.dir, ".claude", "worktrees", "feat");
    repo.git("worktree", "add", "-q", "-b", "feat", wt);
    try {
      const file = join(wt, "src", "app.js");
      writeFileSync(file, "// worktree edit\n" + readFileSync(file, "utf8"));
      const before = gitDirHash(repo.dir);
      const r = await ask("blame", repo.dir, { path: file });
      expect(gitDirHash(repo.dir)).toBe(before);
      expect(r.worktree).toBe(true);
      const truth = gitBlameWorkTreeShas(wt, "src/app.js");
      expect(r.hunks.flatMap(([s, e, sha]: [number, number, string | null]) => Array.from({ length: e - s + 1 }, () => sha))).toEqual(truth);
      expect((await ask("blame", repo.dir, { path: "src/app.js" })).worktree).toBeUndefined();
    } finally {
      repo.git("worktree", "remove", "--force", wt);
      repo.git("branch", "-q", "-D", "feat");
    }
  });
});

function gitBlameWorkTreeShas(dir: string, path: string): (string | null)[] {
  return spawnSync("git", ["blame", "--porcelain", "--", path], { cwd: dir, encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
    .map((l) => (/^0{40}/.test(l) ? null : l.slice(0, 12)));
}

describe("the file on disk with a .git-blame-ignore-revs", () => {
  test("lines of an ignored commit get the commit before it on disk as at HEAD, as git blame --ignore-revs-file -- PATH says", async () => {
    const r = new TestRepo();
    try {
      r.write("f.js", lines(...Array.from({ length: 40 }, (_, i) => `const v${i + 1} = ${i + 1};`)));
      r.commit("first");
      r.write("f.js", lines(...Array.from({ length: 40 }, (_, i) => (i % 5 === 2 ? `const v${i + 1} = ${i + 100};` : `const v${i + 1} = ${i + 1};`))));
      r.commit("second", BOB);
      r.write("f.js", lines(...Array.from({ length: 40 }, (_, i) => (i % 5 === 2 ? `const  v${i + 1}  =  ${i + 100};` : `const  v${i + 1}  =  ${i + 1};`))));
      const format = r.commit("format everything", CAROL);
      r.write(".git-blame-ignore-revs", format + "\n");
      r.commit("ignore the formatting");
      const full = join(r.dir, "f.js");
      const ls = readFileSync(full, "utf8").split("\n");
      writeFileSync(full, [...ls.slice(0, 10), "// new", ...ls.slice(10, 20), ...ls.slice(24)].join("\n"));
      await expectBlameLikeGit(r.dir, "f.js", {}, ["--ignore-revs-file", join(r.dir, ".git-blame-ignore-revs")]);
    } finally {
      r.cleanup();
    }
  });
});

describe("-L :NAME in the file on disk", () => {
  const shape = (extra: string[] = []) =>
    lines("import math", "", "class Shape:", "    def area(self):", "        return 0", "", ...extra, "    def name(self):", "        return 'shape'", "", "def helper():", "    return 1");

  test("history -L :NAME finds the function where git blame -L :NAME -- PATH finds it on disk (the diff=python funcname rule), mapped to HEAD's lines as -L A,B", async () => {
    const r = new TestRepo();
    try {
      r.write(".gitattributes", "*.py diff=python\n");
      r.write("shape.py", shape());
      r.commit("shape");
      r.write("shape.py", shape().replace("return 'shape'", "return 'Shape'"));
      r.commit("name it", BOB);
      // On disk: a new method above name(), and name() changed.
      r.write("shape.py", shape(["    def sides(self):", "        return None", ""]).replace("return 'shape'", "return 'a shape'"));
      for (const name of ["name", "sides", "area", "helper"]) {
        const truth = gitFunctionLines(r.dir, name);
        const before = gitDirHash(r.dir);
        const mine = await ask("history", r.dir, { path: "shape.py", lines: `:${name}`, limit: 1000 });
        expect(gitDirHash(r.dir)).toBe(before);
        expect({ name, range: mine.range }).toEqual({ name, range: truth });
        expect(mine).toEqual(await expectLineHistoryLikeGit(r.dir, "shape.py", truth[0], truth[1]));
      }
      // An indented def is a function only by the python rule: without the attribute git finds none.
      r.write(".gitattributes", "");
      await expect(ask("history", r.dir, { path: "shape.py", lines: ":sides" })).rejects.toMatchObject({ code: "BAD_RANGE" });
      expect((await ask("history", r.dir, { path: "shape.py", lines: ":helper" })).range).toEqual(gitFunctionLines(r.dir, "helper"));
      r.write("fresh.py", lines("def fresh():", "    pass"));
      await expect(ask("history", r.dir, { path: "fresh.py", lines: ":fresh" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    } finally {
      r.cleanup();
    }
  });
});

/** The on-disk lines git blame -L :NAME -- shape.py finds. */
function gitFunctionLines(dir: string, name: string): [number, number] {
  const out = spawnSync("git", ["blame", "--porcelain", `-L:${name}`, "--", "shape.py"], { cwd: dir, encoding: "utf8" }).stdout;
  const ls = [...out.matchAll(/^[0-9a-f]{40} \d+ (\d+)/gm)].map((m) => Number(m[1]));
  return [Math.min(...ls), Math.max(...ls)];
}

/** shape.py (funcnames by the python rule) in two commits: the file, then name() changed by Bob. */
function shapeHistory(): TestRepo {
  const r = new TestRepo();
  r.write(".gitattributes", "*.py diff=python\n");
  r.write("shape.py", lines("class Shape:", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'shape'"));
  r.commit("shape");
  r.write("shape.py", lines("class Shape:", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'Shape'"));
  r.commit("name it", BOB);
  return r;
}

/** shape.py edited on disk: a new method above area(), and name() changed. */
const SHAPE_ON_DISK = lines("class Shape:", "    def sides(self):", "        return None", "", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'a shape'");

describe("blame -L :NAME", () => {
  test("blames the function's lines where git blame -L :NAME -- PATH finds them: on disk when the file differs from HEAD's, at the commit with until", async () => {
    const r = shapeHistory();
    try {
      const clean = await lore(r.dir, ["blame", "shape.py", "-L", ":name"]);
      expect(clean.worktree).toBeUndefined();
      expect(clean.range).toEqual(gitFunctionLines(r.dir, "name"));
      await expectBlameLikeGit(r.dir, "shape.py", { startLine: clean.range[0], endLine: clean.range[1] });
      r.write("shape.py", SHAPE_ON_DISK);
      for (const name of ["name", "sides", "area"]) {
        const mine = await lore(r.dir, ["blame", "shape.py", "-L", `:${name}`]);
        const [a, b] = gitFunctionLines(r.dir, name);
        expect({ name, range: mine.range }).toEqual({ name, range: [a, b] });
        expect(mine).toEqual(await expectBlameLikeGit(r.dir, "shape.py", { startLine: a, endLine: b }));
      }
      const atHead = await lore(r.dir, ["blame", "shape.py", "-L", ":name", "--until", "HEAD"]);
      expect(atHead.range).toEqual([5, 6]);
      expect(atHead.hunks).toEqual(gitBlameHunksAtHead(r.dir, 5, 6));
      await expect(lore(r.dir, ["blame", "shape.py", "-L", ":nothing"])).rejects.toThrow(/no match/);
    } finally {
      r.cleanup();
    }
  });
});

describe("intent -L :NAME", () => {
  test("explains the function's lines where git blame -L :NAME -- PATH finds them, as intent -L A,B of those lines does; on disk, and at the commit with until", async () => {
    const r = shapeHistory();
    try {
      const same = async (name: string, until: string[] = []) => {
        const byName = await lore(r.dir, ["intent", "shape.py", "-L", `:${name}`, ...until]);
        const [a, b] = byName.range;
        expect(await lore(r.dir, ["intent", "shape.py", "-L", `${a},${b}`, ...until])).toEqual(byName);
        return byName;
      };
      const clean = await same("name");
      expect(clean.range).toEqual(gitFunctionLines(r.dir, "name"));
      expect(clean.commits.map((c: any) => c.message.trim())).toEqual(["name it", "shape"]);
      r.write("shape.py", SHAPE_ON_DISK);
      for (const name of ["name", "sides", "area"]) {
        const mine = await same(name);
        expect({ name, range: mine.range, worktree: mine.worktree }).toEqual({ name, range: gitFunctionLines(r.dir, name), worktree: true });
      }
      // sides() is new on disk: every line of it is not committed.
      expect((await same("sides")).uncommitted).toEqual([gitFunctionLines(r.dir, "sides")]);
      expect((await same("name", ["--until", "HEAD"])).range).toEqual([5, 6]);
      await expect(lore(r.dir, ["intent", "shape.py", "-L", ":nothing"])).rejects.toThrow(/no match/);
      await expect(lore(r.dir, ["intent", "shape.py"])).rejects.toThrow(/BAD_ARGUMENT/);
    } finally {
      r.cleanup();
    }
  });
});

/** lore's CLI answer (--json, in-process), or the error it printed. */
async function lore(dir: string, args: string[]): Promise<any> {
  const r = spawnSync(process.execPath, [join(import.meta.dir, "..", "..", "src", "main.ts"), ...args, "--json"], { cwd: dir, env: { ...process.env, LORE_NO_DAEMON: "1", NO_COLOR: "1" }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
  return JSON.parse(r.stdout);
}

/** git blame -L a,b HEAD as [start, end, sha] per line run. */
function gitBlameHunksAtHead(dir: string, a: number, b: number): [number, number, string][] {
  return gitBlame(dir, "HEAD", "shape.py").slice(a - 1, b).reduce<[number, number, string][]>((out, l, i) => {
    const last = out[out.length - 1];
    if (last && last[2] === l.sha) last[1] = a + i;
    else out.push([a + i, a + i, l.sha]);
    return out;
  }, []);
}
