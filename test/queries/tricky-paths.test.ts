/**
 * Histories git's own regression tests are made of: names that look like patterns, a repository
 * whose config names programs (textconv, external diff, filters), a file that replaced a folder.
 * Each answer is compared with what git says.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { asLore, gitBlame, gitLogFile, historyAsLog, hunksToLines, short } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { gitFileChanges } from "../../src/queries/run/follow.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { Warmup } from "../../src/daemon/background.ts";

beforeAll(() => {
  isolateHome();
});
afterAll(() => closeAll());

/** lore's blame as git's per-line owners: sha and origin path of every line. */
function blameLines(r: any, path: string) {
  return hunksToLines(r.hunks, path).map((l) => ({ sha: l.sha, origPath: l.origPath, origLine: l.origLine }));
}

describe("names that look like pathspecs are names", () => {
  let r: TestRepo;
  const names = ["f*", "foo", "f[o][o]"];
  // What git says when it reads every path literally (the helpers' git runs inherit this).
  beforeAll(() => {
    process.env.GIT_LITERAL_PATHSPECS = "1";
  });
  afterAll(() => {
    delete process.env.GIT_LITERAL_PATHSPECS;
  });
  beforeAll(() => {
    r = new TestRepo();
    for (const n of names) {
      r.write(n, lines(`${n} one`, `${n} two`));
      r.commit(`add ${n}`);
    }
    for (const n of names) {
      r.write(n, lines(`${n} one`, `${n} two`, `${n} needle`));
      r.commit(`grow ${n}`);
    }
  });
  afterAll(() => r.cleanup());

  test("history, history --no-follow, log, blame and code search of f*, foo and f[o][o] are git's, read literally", async () => {
    for (const path of names) {
      const literal = (args: string[]) => runGit(r.dir, ["--literal-pathspecs", ...args]);
      const noFollow = await ask("history", r.dir, { path, follow: false });
      expect({ path, commits: noFollow.commits.map((c: any) => c.sha) }).toEqual({ path, commits: literal(["log", "--format=%h", "--abbrev=12", "--", path]).trim().split("\n") });
      expect(noFollow.commits.length).toBe(2);
      const follow = await ask("history", r.dir, { path });
      expect({ path, log: historyAsLog(follow) }).toEqual({ path, log: gitLogFile(r.dir, "HEAD", path) });
      const log = await ask("log", r.dir, { paths: [path] });
      expect({ path, commits: log.commits.map((c: any) => c.sha) }).toEqual({ path, commits: literal(["log", "--format=%h", "--abbrev=12", "--", path]).trim().split("\n") });
      const blame = await ask("blame", r.dir, { path });
      expect(blameLines(blame, path)).toEqual(gitBlame(r.dir, "HEAD", path).map((o) => asLore(o, path)));
      const code = await ask("search", r.dir, { query: "needle", code: true, paths: [path] });
      expect({ path, shas: code.results.map((c: any) => c.sha) }).toEqual({ path, shas: literal(["log", "-Sneedle", "--format=%h", "--abbrev=12", "--", path]).trim().split("\n") });
      const who = await ask("contributors", r.dir, { path });
      expect({ path, lines: who.totalLines }).toEqual({ path, lines: 3 });
    }
  });

  test("the first answer of history (from git, before the index) reads the name literally too", async () => {
    const ix = await indexFor(r.dir);
    const ctx = { index: ix, clock: () => new Date(), blameWorkers: 2 } as unknown as QueryContext;
    for (const path of names) {
      for (const follow of [true, false]) {
        const rows = await gitFileChanges(ctx, r.head(), path, 20, follow);
        expect({ path, follow, shas: rows.map((x) => short(x.sha)) }).toEqual({ path, follow, shas: gitLogFile(r.dir, "HEAD", path, follow).map((e) => e.sha) });
        expect(rows.length).toBe(2);
      }
    }
  });
});

describe("a repository whose config and attributes name programs", () => {
  let r: TestRepo;
  let marker = "";
  beforeAll(() => {
    r = new TestRepo();
    const bin = tempDir("lore-programs-");
    marker = join(bin, "ran");
    // A textconv driver, an external diff and a clean filter, each leaving a mark when run.
    const spy = join(bin, "spy");
    writeFileSync(spy, `#!/bin/sh\necho "$0 $*" >> ${marker}\ntr a-z A-Z < "$1"\n`);
    chmodSync(spy, 0o755);
    r.write(".gitattributes", "*.txt diff=upper filter=spy\n*.md diff=ext\n");
    r.write("a.txt", lines("alpha", "beta", "gamma"));
    r.write("b.md", lines("one", "two"));
    r.write("c.txt", lines("kept", "as", "committed"));
    r.commit("first");
    r.write("a.txt", lines("alpha", "beta changed", "gamma", "delta"));
    r.write("b.md", lines("one", "two", "three"));
    r.commit("second");
    r.git("config", "diff.upper.textconv", spy);
    r.git("config", "diff.ext.command", spy);
    r.git("config", "diff.external", spy);
    r.git("config", "filter.spy.clean", `${spy}`);
    r.git("config", "filter.spy.smudge", "cat");
    // The check itself: git does run them when not told otherwise.
    runGit(r.dir, ["blame", "a.txt"]);
    expect(existsSync(marker)).toBe(true);
    runGit(r.dir, ["rm", "-q", "--cached", "-r", "."]);
    runGit(r.dir, ["reset", "-q"]);
    require("node:fs").rmSync(marker);
    // A change in the work tree for the questions that read it.
    r.write("a.txt", lines("alpha", "beta changed", "gamma", "delta", "epsilon"));
    // And a file touched but not changed: git must hash it again (through the filter) to see so.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(r.dir, "c.txt"), later, later);
  });
  afterAll(() => r.cleanup());

  test("blame is git blame --no-textconv (the stored bytes), and no question or background pass runs the repository's programs", async () => {
    const head = r.head();
    const blame = await ask("blame", r.dir, { path: "a.txt", until: "HEAD" });
    expect(blameLines(blame, "a.txt")).toEqual(gitBlame(r.dir, "HEAD", "a.txt", ["--no-textconv"]).map((o) => asLore(o, "a.txt")));
    expect(blame.lines).toBe(4);
    await ask("blame", r.dir, { path: "b.md", until: "HEAD" });
    await ask("blame", r.dir, { path: "a.txt" });
    await ask("intent", r.dir, { path: "a.txt", startLine: 1, endLine: 4, until: "HEAD" });
    await ask("history", r.dir, { path: "a.txt", lines: "2,3" });
    const code = await ask("search", r.dir, { query: "BETA", code: true });
    expect(code.results).toEqual([]);
    const beta = (await ask("search", r.dir, { query: "beta", code: true })).results.map((c: any) => c.sha);
    expect(beta).toEqual(runGit(r.dir, ["log", "-Sbeta", "--no-textconv", "--format=%h", "--abbrev=12"]).trim().split("\n"));
    const show = await ask("show", r.dir, { rev: head, patch: true });
    expect(show.patch).toBe(runGit(r.dir, ["show", "--no-textconv", "--no-ext-diff", "--format=", head]).replace(/^\n/, ""));
    await ask("compare", r.dir, { base: "HEAD~1", patch: true });
    await ask("cochange", r.dir, { changed: true });
    await ask("review", r.dir, {});
    await ask("contributors", r.dir, {});
    await ask("owners", r.dir, {});
    const ix = await indexFor(r.dir);
    const warmup = new Warmup(ix, 2, () => {});
    warmup.kick();
    while (warmup.active) await Bun.sleep(20);
    expect(existsSync(marker) ? require("node:fs").readFileSync(marker, "utf8") : "never run").toBe("never run");
  });
});

describe("a file that replaced a folder of the same name", () => {
  let r: TestRepo;
  beforeAll(() => {
    r = new TestRepo();
    r.write("path/a", lines("a")).write("other", lines("x"));
    r.commit("folder");
    r.write("path/b", lines("b"));
    r.commit("folder more");
    r.remove("path");
    r.write("path", lines("file"));
    r.commit("file replaces folder");
    r.write("path", lines("file", "more"));
    r.commit("file edit");
  });
  afterAll(() => r.cleanup());

  test("history lists the folder's commits too, as git log --follow's pathspec does, and the first answer (from git) is the indexed one", async () => {
    const ix = await indexFor(r.dir);
    const ctx = { index: ix, clock: () => new Date(), blameWorkers: 2 } as unknown as QueryContext;
    const early = await gitFileChanges(ctx, r.head(), "path", 20);
    const indexed = await ask("history", r.dir, { path: "path" });
    expect(indexed.commits.map((c: any) => c.subject)).toEqual(["file edit", "file replaces folder", "folder more", "folder"]);
    expect(historyAsLog(indexed)).toEqual(gitLogFile(r.dir, "HEAD", "path"));
    expect(early.map((x) => short(x.sha))).toEqual(indexed.commits.map((c: any) => c.sha));
    expect(early.map((x) => [x.status, x.path, x.additions, x.deletions])).toEqual(indexed.commits.map((c: any) => [c.status ?? "M", c.path ?? "path", c.additions, c.deletions]));
    // Without --follow it is git log -- path's, folder and all.
    const plain = await ask("history", r.dir, { path: "path", follow: false });
    expect(plain.commits.map((c: any) => c.sha)).toEqual(runGit(r.dir, ["log", "--format=%h", "--abbrev=12", "--", "path"]).trim().split("\n"));
  });

  test("history of the name where it is still a folder says it is a folder", async () => {
    await expect(ask("history", r.dir, { path: "path", until: "HEAD~2" })).rejects.toMatchObject({ code: "NOT_A_FILE" });
  });
});
