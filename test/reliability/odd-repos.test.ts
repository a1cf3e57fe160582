import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, CAROL, TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { gitBlame, gitBlameWorkTree, gitCommitFiles, gitLogFile, hunksToLines } from "../helpers/git-truth.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";

const made: TestRepo[] = [];
function repo(): TestRepo {
  const r = new TestRepo();
  made.push(r);
  return r;
}
beforeAll(() => isolateHome());
afterAll(() => made.forEach((r) => r.cleanup()));

describe("odd repositories", () => {
  test("a file name that is not UTF-8 is listed, blamed and followed", async () => {
    const r = repo();
    const name = Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "latin\xe9.txt"
    writeFileSync(Buffer.concat([Buffer.from(r.dir + "/"), name]), "one\ntwo\n");
    r.commit("Add a latin-1 name");
    writeFileSync(Buffer.concat([Buffer.from(r.dir + "/"), name]), "one\ntwo\nthree\n");
    const second = r.commit("Grow it", BOB);
    const hs = await ask("hotspots", r.dir);
    const path = hs.results[0].path as string;
    expect(path).toBe("latin\u{10fce9}.txt");
    const b = await ask("blame", r.dir, { path });
    expect(b.hunks.map((h: any) => [h[0], h[1]])).toEqual([[1, 2], [3, 3]]);
    expect(b.hunks[1][2]).toBe(second.slice(0, 12));
    const h = await ask("history", r.dir, { path });
    expect(h.commits.length).toBe(2);
    expect(JSON.parse(JSON.stringify(h)).path).toBe(path);
  });

  test("CRLF files blame line by line like git", async () => {
    const r = repo();
    r.write("win.txt", "a\r\nb\r\nc\r\n");
    r.commit("crlf");
    r.write("win.txt", "a\r\nB\r\nc\r\n");
    r.commit("edit", BOB);
    const b = await ask("blame", r.dir, { path: "win.txt" });
    expect(b.lines).toBe(3);
    expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual(gitBlame(r.dir, "HEAD", "win.txt").map((o) => o.sha));
  });

  test("a commit message in another encoding comes back as UTF-8", async () => {
    const r = repo();
    r.git("config", "i18n.commitEncoding", "ISO-8859-1");
    r.write("a.txt", "x\n");
    r.git("add", "a.txt");
    const msg = Buffer.from("Caf\xe9 cr\xe8me\n", "latin1");
    runGit(r.dir, ["commit", "-q", "-F", "-"], {}, msg);
    const i = await ask("intent", r.dir, { path: "a.txt", startLine: 1, endLine: 1 });
    expect(i.commits[0].message).toBe("Café crème");
  });

  test("a Git LFS pointer is answered as the text git stores", async () => {
    const r = repo();
    r.write(".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n");
    r.write("model.bin", "version https://git-lfs.github.com/spec/v1\noid sha256:" + "a".repeat(64) + "\nsize 12345\n");
    r.commit("Add LFS pointer");
    const b = await ask("blame", r.dir, { path: "model.bin" });
    expect(b.lines).toBe(3);
    const h = await ask("history", r.dir, { path: "model.bin" });
    expect(h.commits[0]).toMatchObject({ additions: 3, deletions: 0 });
  });

  test("an octopus merge counts as one commit with no files of its own", async () => {
    const r = repo();
    r.write("base.txt", "base\n");
    r.commit("base");
    for (const b of ["x", "y", "z"]) {
      r.git("checkout", "-q", "-b", b, "main");
      r.write(`${b}.txt`, `${b}\n`);
      r.commit(`add ${b}`, CAROL);
    }
    r.git("checkout", "-q", "main");
    runGit(r.dir, ["merge", "-q", "-m", "octopus", "x", "y", "z"]);
    expect(r.git("rev-list", "--min-parents=3", "HEAD").trim()).not.toBe("");
    const c = await ask("cochange", r.dir, { paths: ["x.txt"], commits: "all" });
    expect(c.commits).toBe(1);
    expect(c.window.perFile).toBeUndefined();
    for (const f of ["x.txt", "y.txt", "z.txt"]) expect((await ask("history", r.dir, { path: f })).commits.map((x: any) => x.sha)).toEqual(gitLogFile(r.dir, "HEAD", f).map((e) => e.sha));
  });

  test("a linked worktree has its own HEAD and answers for it", async () => {
    const r = repo();
    r.write("a.txt", "main\n");
    r.commit("main");
    r.git("branch", "other");
    const wt = join(tempDir(), "wt");
    r.git("worktree", "add", "-q", wt, "other");
    runGit(wt, ["-c", "user.name=W", "-c", "user.email=w@example.com", "commit", "-q", "--allow-empty", "-m", "only in the worktree"]);
    const s = await ask("status", wt);
    expect(s.repo).toBe(wt);
    expect(s.head).toBe(runGit(wt, ["rev-parse", "HEAD"]).trim());
    expect(s.branch).toBe("other");
    const main = await ask("status", r.dir);
    expect(main.head).toBe(r.head());
  });

  test("an unborn branch has no commits, even when other branches do", async () => {
    const r = repo();
    r.write("a.txt", "x\n");
    r.commit("x");
    r.git("checkout", "-q", "--orphan", "fresh");
    await expect(ask("blame", r.dir, { path: "a.txt" })).rejects.toMatchObject({ code: "NO_COMMITS" });
    // The index keeps following main: only HEAD has nothing to say.
    expect(await ask("status", r.dir)).toMatchObject({ head: null, branch: "fresh", state: "fresh" });
  });

  test("mid-rebase, stopped on a conflict: answers at the detached HEAD, and the rebase is left exactly as it was", async () => {
    const r = repo();
    r.write("f.txt", lines("a", "b", "c")).commit("base");
    r.git("checkout", "-q", "-b", "topic");
    r.write("f.txt", lines("a", "TOPIC", "c")).commit("topic", BOB);
    r.write("g.txt", lines("new")).commit("topic adds g", BOB);
    r.git("checkout", "-q", "main");
    r.write("f.txt", lines("a", "MAIN", "c")).commit("main", CAROL);
    r.git("checkout", "-q", "topic");
    const rebase = Bun.spawnSync(["git", "rebase", "main"], { cwd: r.dir, env: { ...process.env, GIT_EDITOR: "true" } });
    expect(rebase.exitCode).not.toBe(0);
    const state = () => runGit(r.dir, ["status", "--porcelain=v2", "--branch"]) + runGit(r.dir, ["rev-parse", "HEAD"]) + runGit(r.dir, ["diff"]);
    const before = state();
    expect(before).toContain("# branch.head (detached)");

    const head = r.git("rev-parse", "HEAD").trim();
    expect((await ask("status", r.dir)).head).toBe(head);
    // The file on disk holds the conflict: its markers are not committed, as git blame -- f.txt says.
    const b = await ask("blame", r.dir, { path: "f.txt" });
    expect(b.hunks.flatMap(([s, e, sha]: [number, number, string | null]) => Array.from({ length: e - s + 1 }, () => sha))).toEqual(gitBlameWorkTree(r.dir, "f.txt").map((o) => o.sha));
    const atHead = await ask("blame", r.dir, { path: "f.txt", until: "HEAD" });
    expect(hunksToLines(atHead.hunks).map((l) => l.sha)).toEqual(gitBlame(r.dir, "HEAD", "f.txt").map((o) => o.sha));
    expect((await ask("history", r.dir, { path: "f.txt" })).commits.map((c: any) => c.sha)).toEqual(gitLogFile(r.dir, "HEAD", "f.txt").map((c) => c.sha));
    expect((await ask("blame", r.dir, { path: "f.txt", until: "topic" })).rev).toBe(r.git("rev-parse", "topic").trim());
    expect(state()).toBe(before);
  });

  test("a commit touching 10,000 files is indexed and left out of co-change", async () => {
    const r = repo();
    // One git fast-import (commit-stream.ts): not 10,000 files written one by one, then stat by git add.
    r.commits((b) => {
      for (let i = 0; i < 10_000; i++) b.write(`many/f${i}.txt`, `${i}\n`);
      b.write("core.txt", "core\n").commit("Ten thousand files");
      b.write("core.txt", "core 2\n").write("many/f1.txt", "changed\n").commit("Two files", BOB);
    });
    const c = await ask("cochange", r.dir, { paths: ["core.txt"] });
    expect(c.commits).toBe(1);
    expect(c.results).toEqual([{ path: "many/f1.txt", score: 1, count: 1, confidence: 1, jaccard: 1 }]);
    const hs = await ask("hotspots", r.dir, { limit: 1 });
    expect(hs.truncated).toBe(true);
    expect((await ask("status", r.dir)).filesTotal).toBe(10_001);
  }, 120_000);
});

describe("the user's git settings and environment do not change answers", () => {
  let r: TestRepo;
  beforeAll(() => {
    r = repo();
    r.write("a.txt", lines(1, 2, 3));
    r.write("old.txt", lines("x", "y", "z", "w"));
    r.commit("one", ALICE);
    r.git("mv", "old.txt", "new.txt");
    r.write("a.txt", lines(1, "two", 3));
    r.commit("two", BOB);
  });

  test("color, signatures, follow, relative diffs, renames off, quoted paths, dates and an ignore file", async () => {
    const clean = {
      blame: await ask("blame", r.dir, { path: "a.txt" }),
      history: await ask("history", r.dir, { path: "new.txt" }),
      cochange: await ask("cochange", r.dir, { paths: ["a.txt"] }),
    };
    const home = tempDir();
    writeFileSync(join(home, "revs"), r.head() + "\n");
    const config = [
      "color.ui=always", "log.showSignature=true", "log.follow=true", "diff.relative=true", "diff.renames=false",
      "core.quotepath=true", "blame.date=relative", "log.showRoot=false", `blame.ignoreRevsFile=${join(home, "revs")}`,
      "diff.external=/bin/false", "log.decorate=full", "format.pretty=oneline", "diff.noprefix=true", "log.abbrevCommit=true",
    ];
    for (const c of config) {
      const [k, v] = c.split("=");
      r.git("config", k!, v!);
    }
    process.env.LORE_HOME = tempDir("lore-home-");
    expect(await ask("blame", r.dir, { path: "a.txt" })).toEqual(clean.blame);
    expect(await ask("history", r.dir, { path: "new.txt" })).toEqual(clean.history);
    expect(await ask("cochange", r.dir, { paths: ["a.txt"] })).toEqual(clean.cochange);
    for (const c of config) r.git("config", "--unset", c.split("=")[0]!);
  });

  test("GIT_DIR and GIT_WORK_TREE in the environment do not redirect lore", () => {
    const other = repo();
    other.write("elsewhere.txt", "x\n");
    other.commit("elsewhere");
    const res = cli(r.dir, ["status", "--json"], { GIT_DIR: join(other.dir, ".git"), GIT_WORK_TREE: other.dir });
    expect(res.code).toBe(0);
    expect(res.json.repo).toBe(r.dir);
    expect(res.json.head).toBe(r.head());
  });
});

test("the files a commit touched agree with git log --name-only for odd names", async () => {
  const r = repo();
  for (const n of ["sp ace.txt", "tab\tx.txt", 'q"uote.txt', "nl\nx.txt", "ünï.txt"]) r.write(n, "x\n");
  r.commit("odd");
  const i = await ask("intent", r.dir, { path: "sp ace.txt", startLine: 1, endLine: 1 });
  expect(i.commits[0].files).toEqual(gitCommitFiles(r.dir, "HEAD")[0]!.files.filter((f) => f !== "sp ace.txt").sort());
  expect(i.commits[0].filesTotal).toBe(5);
});
