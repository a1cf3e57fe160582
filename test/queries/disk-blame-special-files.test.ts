/** blame of the file on disk where git reads it specially: index flags, odd names, line endings, unreadable files, FIFOs and ignored revisions. */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useDiskRepo } from "../helpers/disk-repo.ts";
import { expectBlameLikeGit, expectIntentLikeGit } from "../helpers/disk-truth.ts";
import { BOB, CAROL, lines, TestRepo } from "../helpers/git-repo.ts";
import { ask } from "../helpers/lore.ts";
import { loreArgv } from "../helpers/lore-argv.ts";

let repo: TestRepo;
const { reset, edit } = useDiskRepo((r) => (repo = r));

describe("blame of the file on disk", () => {
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
      const r = spawnSync(setpriv!, [`--bounding-set=${drop}`, `--inh-caps=${drop}`, "--", ...loreArgv(), "blame", "moved.txt", "--json"], {
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
