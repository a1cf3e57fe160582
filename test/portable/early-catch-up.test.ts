/**
 * An import starts its catch-up's git while it checks the file (src/portable/early-catch-up.ts): the
 * catch-up takes every one of them and the index then says what git says; a file refused meanwhile
 * leaves no index, no git running and no spool file behind; a prefetched git nobody takes is ended.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { runningIn } from "../helpers/running-in.ts";
import { thirtyMore } from "../helpers/thirty-more.ts";
import { indexDbOf, readIndexFile, writeIndexFile } from "../helpers/index-file.ts";
import { dropPrefetched, prefetch, prefetchedWaiting } from "../../src/git/prefetch.ts";
import { discoverRepo } from "../../src/git/repo.ts";
import { git } from "../../src/git/run.ts";
import { checkedJustNow, openIndexDatabase } from "../../src/store/open.ts";
import { closeAll, indexOf } from "../../src/index/indexes.ts";
import { buildIndex } from "../../src/portable/build.ts";
import { startCatchUp } from "../../src/portable/early-catch-up.ts";
import { importIndex } from "../../src/portable/import.ts";
import { PhaseLog } from "../../src/portable/phase-log.ts";

let root = "";
let a = "";
let b = "";
let file = "";
const savedHome = process.env.LORE_HOME;

beforeAll(async () => {
  root = tempDir("lore-early-");
  a = join(root, "a");
  await generateRepo({ dir: a, commits: 150, files: 60, seed: 23 });
  // Releases: the clone gets the same tags, so the import keeps the releases the file read from them.
  runGit(a, ["tag", "v1.0.0", "HEAD~100"]);
  runGit(a, ["tag", "-a", "-m", "1.1", "v1.1.0", "HEAD~40"]);
  b = join(root, "b");
  runGit(root, ["clone", "-q", "--no-local", a, b]);
  const repo = new TestRepo(b, false);
  repo.git("config", "user.name", "Test Committer");
  repo.git("config", "user.email", "committer@example.com");
  thirtyMore(repo, runGit(b, ["ls-files"]).split("\n").filter((f) => f.endsWith(".ts")));
  file = join(root, "a.lore");
  expect(cli(a, ["index", "export", file], { LORE_HOME: join(root, "home-a") }).code).toBe(0);
}, 240_000);

afterAll(() => {
  closeAll();
  if (savedHome === undefined) delete process.env.LORE_HOME;
  else process.env.LORE_HOME = savedHome;
});

describe("an import 30 commits behind HEAD", () => {
  test("starts its catch-up's git before the file is checked, and the catch-up takes every one: the index then has git's history", async () => {
    process.env.LORE_HOME = join(root, "home-in-process");
    const repo = await discoverRepo(b);
    const log = await PhaseLog.open();
    let started = 0;
    const imported = await importIndex(repo, file, {}, log, undefined, false, async (m) => {
      await startCatchUp(repo, m);
      started = prefetchedWaiting();
    });
    // That the old head is a commit, history, tree, churn, change index, tags and notes refs.
    expect(started).toBe(7);
    const built = await buildIndex(indexOf(repo), log, { blame: false });
    expect(prefetchedWaiting()).toBe(0);
    expect(dropPrefetched()).toBe(0);
    expect(built.commits - imported.commits).toBe(30);
    expect(built.head).toBe(runGit(b, ["rev-parse", "HEAD"]).trim());
    const store = indexOf(repo).store;
    expect(store.meta("churnHead")).toBe(built.head);
    expect(store.meta("codeHead")).toBe(built.head);
    closeAll();
    const answer = cli(b, ["log", "-n", "40", "--json"], { LORE_HOME: join(root, "home-in-process") });
    expect(answer.json.commits.map((c: { sha: string }) => c.sha)).toEqual(runGit(b, ["log", "-n", "40", "--format=%H"]).trim().split("\n").map((h) => h.slice(0, 12)));
  });

  test("a tag made after the catch-up's git read the refs is seen: that read is not taken", async () => {
    process.env.LORE_HOME = join(root, "home-new-tag");
    const repo = await discoverRepo(b);
    const log = await PhaseLog.open();
    try {
      await importIndex(repo, file, {}, log, undefined, false, async (m) => {
        await startCatchUp(repo, m);
        // Once git has surely listed the tags.
        await Bun.sleep(300);
        runGit(b, ["tag", "v9.0.0", "HEAD"]);
      });
      await buildIndex(indexOf(repo), log, { blame: false });
      // (The tree of HEAD is remembered from the test before, in this process: its ls-tree is left.)
      dropPrefetched();
      closeAll();
      const newest = cli(b, ["log", "-n", "1", "--json"], { LORE_HOME: join(root, "home-new-tag") }).json.commits[0];
      expect(newest.release).toBe("v9.0.0");
    } finally {
      runGit(b, ["tag", "-d", "v9.0.0"]);
    }
  });

  test("a file refused after its catch-up's git started leaves no index, no git running and no spool file", () => {
    const f = readIndexFile(file);
    const dbPath = join(root, "lying.db");
    writeFileSync(dbPath, f.db);
    const db = new Database(dbPath);
    db.exec("UPDATE commit_rows SET time = time + 1");
    db.close();
    f.db = readFileSync(dbPath);
    const lying = join(root, "lying.lore");
    writeIndexFile(lying, f);
    const tmp = join(root, "tmp");
    mkdirSync(tmp);
    const home = join(root, "home-refused");
    const r = cli(b, ["index", "import", lying], { LORE_HOME: home, TMPDIR: tmp });
    expect(r.stderr).toContain("[BAD_INDEX_FILE]");
    expect(r.code).toBe(1);
    expect(existsSync(join(home, "repos")) ? readdirSync(join(home, "repos"), { recursive: true }).filter((n) => String(n).endsWith(".db")) : []).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(runningIn(b)).toEqual([]);
  });
});

describe("the message search after an import", () => {
  test("is made from the commits by the first message search, in one go, and finds what git log --grep finds", () => {
    const home = join(root, "home-search");
    expect(cli(b, ["index", "import", file], { LORE_HOME: home }).code).toBe(0);
    const db = new Database(indexDbOf(home), { readonly: true });
    const one = (sql: string) => (db.query(sql).get() as { v: unknown } | null)?.v;
    const searched = () => [Number(one("SELECT count(*) AS v FROM message_fts_docsize")), one("SELECT value AS v FROM meta WHERE key = 'messagesIndexed'")];
    const commits = Number(one("SELECT count(*) AS v FROM commit_rows"));
    // Nothing of it before a search asks: the import did not make it, and nothing of the file was taken.
    expect(searched()).toEqual([0, undefined]);
    const found = cli(b, ["search", "side", "--json"], { LORE_HOME: home }).json.results.map((c: { sha: string }) => c.sha);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(runGit(b, ["log", "--format=%H", "-i", "-E", "--grep=\\bside\\b"]).trim().split("\n").map((h) => h.slice(0, 12)));
    expect(searched()).toEqual([commits, String(one("SELECT max(id) AS v FROM commit_rows"))]);
    db.close();
  });
});

describe("the releases after an import into a clone with the same tags", () => {
  test("are the file's, and each commit's release in log is a fresh first pass's", () => {
    const home = join(root, "home-releases");
    const fresh = join(root, "home-fresh-releases");
    expect(cli(b, ["index", "import", file], { LORE_HOME: home }).code).toBe(0);
    expect(cli(b, ["index", "build"], { LORE_HOME: fresh }).code).toBe(0);
    const releases = (h: string) => cli(b, ["log", "-n", "200", "--json"], { LORE_HOME: h }).json.commits.map((c: { sha: string; release?: string }) => [c.sha, c.release]);
    const mine = releases(home);
    expect(mine.filter(([, r]: [string, string?]) => r !== undefined).length).toBeGreaterThan(100);
    expect(mine).toEqual(releases(fresh));
    const tags = (h: string) => {
      const db = new Database(indexDbOf(h), { readonly: true });
      try {
        return (db.query("SELECT value AS v FROM meta WHERE key = 'releaseTags'").get() as { v: string } | null)?.v;
      } finally {
        db.close();
      }
    };
    expect(tags(home)).toBeDefined();
    expect(tags(home)).toBe(tags(fresh));
  });
});

describe("a prefetched git", () => {
  test("gives the caller that asks the same the bytes git prints, once", async () => {
    const args = ["ls-tree", "-r", "-z", "--full-tree", "HEAD~3", "--"];
    await prefetch(args, { cwd: b });
    expect(prefetchedWaiting()).toBe(1);
    const out = await git(args, { cwd: b });
    expect(prefetchedWaiting()).toBe(0);
    expect(out.equals(execFileSync("git", args, { cwd: b }))).toBe(true);
  });

  test("that nobody takes is ended, with what it wrote", async () => {
    // git reading a pipe nobody writes to waits for ever: only ending it ends it.
    const fifo = join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    const dir = join(root, "blocked");
    runGit(root, ["init", "-q", dir]);
    await prefetch(["hash-object", fifo], { cwd: dir });
    await Bun.sleep(100);
    expect(runningIn(dir).length).toBeGreaterThan(0);
    expect(dropPrefetched()).toBe(1);
    await Bun.sleep(100);
    expect(runningIn(dir)).toEqual([]);
  });
});

describe("the index an import has just checked whole", () => {
  test("is checked again when opened if anything wrote to it since", () => {
    const path = join(root, "checked", "index.db");
    const first = openIndexDatabase(path, "/nowhere");
    first.db.exec("BEGIN");
    for (let i = 0; i < 2000; i++) first.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(`k${i}`, "x".repeat(200));
    first.db.exec("COMMIT");
    first.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    first.db.close();
    checkedJustNow(path);
    // Damaged after the check, at the same size: rows and b-tree pages past the schema's.
    const bytes = readFileSync(path);
    for (let i = bytes.length - 8192; i < bytes.length - 4096; i += 7) bytes[i] = 0x5a;
    writeFileSync(path, bytes);
    const again = openIndexDatabase(path, "/nowhere");
    again.db.close();
    expect(again.rebuilt).toBe("the index file was corrupt");
  });
});
