import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitBlame, gitBlameWorkTree, gitLogFile } from "../helpers/git-truth.ts";
import { BOB, CAROL, lines, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, loreSync, until } from "./daemon-helpers.ts";

let repo: TestRepo;
let home: string;

const ask = (args: string[]) => {
  const r = loreSync(home, repo.dir, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};

/** Blame as lore says it, one sha per line. */
const blameShas = (path: string) => ask(["blame", path]).hunks.flatMap((h: any) => Array.from({ length: h[1] - h[0] + 1 }, () => h[2]));
const short = (sha: string) => sha.slice(0, 12);

function expectMatchesGit(path: string): void {
  expect(blameShas(path)).toEqual(gitBlame(repo.dir, "HEAD", path).map((l) => l.sha));
  expect(ask(["history", path]).commits.map((c: any) => c.sha)).toEqual(gitLogFile(repo.dir, "HEAD", path).map((c) => c.sha));
  const status = ask(["status"]);
  expect(status.head).toBe(repo.head());
  expect(status.indexedHead).toBe(repo.head());
}

beforeAll(() => {
  home = daemonHome();
  repo = new TestRepo();
  repo.write("notes.txt", lines("alpha", "beta", "gamma"));
  repo.commit("Notes");
  repo.write("notes.txt", lines("alpha", "beta", "gamma", "delta"));
  repo.commit("More notes", BOB);
  expectMatchesGit("notes.txt");
}, 60_000);

afterAll(async () => {
  await discardHome(home);
  repo.cleanup();
}, 60_000);

test("a commit shows in blame, history and status with no refresh asked for", () => {
  repo.write("notes.txt", lines("alpha", "BETA", "gamma", "delta"));
  repo.commit("Shout beta", CAROL);
  expectMatchesGit("notes.txt");
});

test("an amended commit replaces the old one in every answer", () => {
  const before = repo.head();
  repo.write("notes.txt", lines("alpha", "Beta", "gamma", "delta"));
  repo.commit("Speak beta", CAROL, ["--amend"]);
  expect(repo.head()).not.toBe(before);
  expectMatchesGit("notes.txt");
  expect(ask(["history", "notes.txt"]).commits.map((c: any) => c.sha)).not.toContain(before.slice(0, 12));
});

test("a hard reset takes the answers back", () => {
  repo.git("reset", "-q", "--hard", "HEAD~1");
  expectMatchesGit("notes.txt");
  expect(ask(["history", "notes.txt"]).commits.length).toBe(2);
});

test("switching branches answers for the branch checked out", () => {
  repo.git("checkout", "-q", "-b", "topic");
  repo.write("notes.txt", lines("alpha", "beta", "gamma", "delta", "epsilon"));
  repo.write("topic.txt", lines("only on topic"));
  repo.commit("Topic work", BOB);
  expectMatchesGit("notes.txt");
  expect(ask(["blame", "topic.txt"]).lines).toBe(1);
  repo.git("checkout", "-q", "main");
  expectMatchesGit("notes.txt");
  const missing = loreSync(home, repo.dir, ["blame", "topic.txt", "--json"]);
  expect(missing.code).toBe(1);
  expect(missing.json.error.code).toBe("PATH_NOT_FOUND");
});

test("the watcher indexes a new commit before anyone asks, within half a second", async () => {
  expect(ask(["status"]).indexedHead).toBe(repo.head());
  repo.write("notes.txt", lines("alpha", "beta", "gamma", "delta", "zeta"));
  const head = repo.commit("Zeta");
  // No question is asked meanwhile: only the watcher can have written this line.
  const log = join(home, "daemon.log");
  const ms = await until(() => readFileSync(log, "utf8").includes(`..${head.slice(0, 12)} in`), 2000, 10);
  expect(ms).toBeLessThan(500);
  expect(ask(["status"]).indexedHead).toBe(head);
});

test("a commit made while a packed ref holds the branch is seen too", async () => {
  repo.git("pack-refs", "--all", "--prune");
  repo.write("notes.txt", lines("alpha", "beta"));
  repo.commit("Shorter");
  expectMatchesGit("notes.txt");
  repo.git("pack-refs", "--all", "--prune");
  repo.git("reset", "-q", "--hard", "HEAD~1");
  expectMatchesGit("notes.txt");
});

test("a linked worktree answers for its own HEAD", async () => {
  const wt = repo.dir + "-wt";
  repo.git("worktree", "add", "-q", "-b", "wt-branch", wt);
  try {
    const other = new TestRepo(wt, false);
    other.write("notes.txt", lines("worktree only"));
    const head = other.commit("In the worktree");
    const r = loreSync(home, wt, ["blame", "notes.txt", "--json"]);
    expect(r.json.hunks[0][2]).toBe(head.slice(0, 12));
    // One index for both worktrees, kept at the main worktree's HEAD; the linked one's HEAD is answered as any commit.
    const status = loreSync(home, wt, ["status", "--json"]).json;
    expect([status.head, status.indexedHead, status.state, status.indexFollows]).toEqual([head, repo.head(), "fresh", realpathSync(repo.dir)]);
    expect(ask(["status"]).indexedHead).toBe(repo.head());
    other.write("notes.txt", lines("worktree only", "twice"));
    const next = other.commit("Again in the worktree");
    expect(loreSync(home, wt, ["blame", "notes.txt", "--json"]).json.hunks[1][2]).toBe(next.slice(0, 12));
    expect(loreSync(home, wt, ["status", "--json"]).json.head).toBe(next);
  } finally {
    repo.git("worktree", "remove", "--force", wt);
  }
});

test("a new .mailmap or .git-blame-ignore-revs changes the answers without a commit", () => {
  repo.write("sweep.txt", lines("one", "two", "three"));
  const first = short(repo.commit("Three lines"));
  repo.write("sweep.txt", lines("one", "two", "three  "));
  const fullSweep = repo.commit("Whitespace sweep", BOB);
  const sweep = short(fullSweep);
  expect(blameShas("sweep.txt")).toEqual([first, first, sweep]);
  expect(ask(["history", "sweep.txt", "-n", "1"]).commits[0].author).toBe(BOB.name);
  repo.write(".git-blame-ignore-revs", `${fullSweep}\n`);
  repo.write(".mailmap", `Robert Example <${BOB.email}>\n`);
  try {
    expect(blameShas("sweep.txt")).toEqual([first, first, first]);
    expect(ask(["history", "sweep.txt", "-n", "1"]).commits[0].author).toBe("Robert Example");
  } finally {
    repo.remove(".git-blame-ignore-revs").remove(".mailmap");
  }
  expect(blameShas("sweep.txt")).toEqual([first, first, sweep]);
  expect(ask(["history", "sweep.txt", "-n", "1"]).commits[0].author).toBe(BOB.name);
});

test("a clean CRLF file's kept answer is not reused once .gitattributes or core.autocrlf changes how git reads it", () => {
  repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  repo.commit("CRLF as committed");
  const asGit = () => gitBlameWorkTree(repo.dir, "crlf.txt").map((o) => o.sha);
  const worktree = () => ask(["blame", "crlf.txt"]).worktree;
  expect([blameShas("crlf.txt"), worktree()]).toEqual([asGit(), undefined]);
  expect(blameShas("crlf.txt")).toEqual(asGit());
  // Now git converts its CRLF on reading: it differs from HEAD's blob, though not a byte of it changed.
  const attributes = join(repo.dir, ".git", "info", "attributes");
  mkdirSync(join(repo.dir, ".git", "info"), { recursive: true });
  writeFileSync(attributes, "crlf.txt text\n");
  try {
    expect([blameShas("crlf.txt"), worktree()]).toEqual([asGit(), true]);
    expect(asGit()).toEqual([null, null, null]);
  } finally {
    rmSync(attributes);
  }
  expect([blameShas("crlf.txt"), worktree()]).toEqual([asGit(), undefined]);
  // An LF file checked out with CRLF is clean while core.autocrlf says so, and not once it is unset.
  repo.write("lf.txt", "one\ntwo\n");
  repo.commit("LF as committed");
  writeFileSync(join(repo.dir, "lf.txt"), "one\r\ntwo\r\n");
  repo.git("config", "core.autocrlf", "true");
  try {
    for (let i = 0; i < 2; i++) expect(ask(["blame", "lf.txt"]).worktree).toBeUndefined();
  } finally {
    repo.git("config", "--unset", "core.autocrlf");
  }
  expect(gitBlameWorkTree(repo.dir, "lf.txt").map((o) => o.sha)).toEqual([null, null]);
  expect(ask(["blame", "lf.txt"])).toMatchObject({ hunks: [[1, 2, null]], worktree: true });
  repo.git("checkout", "--", "lf.txt");
});
