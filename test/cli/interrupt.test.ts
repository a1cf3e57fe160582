/**
 * Ctrl-C on lore while git works for it: git runs in process groups of its own, out of the
 * terminal's reach, so lore ends it, removes an import's files beside the index and exits 130. A
 * spool (git's output in a file read as it grows) leaves no file behind, even when lore is killed outright. The git here is the real one, made slow on one command by a wrapper on the PATH.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, lines, runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { loreArgv } from "../helpers/lore-argv.ts";
import { leftIn } from "../helpers/running-in.ts";

let r: TestRepo;
let root = "";
let exported = "";

/** A PATH whose git is the real one, except that a command with `word` among its arguments first marks `mark` and sleeps a minute. */
function slowGitOn(word: string, mark: string): string {
  const real = Bun.which("git")!;
  const dir = tempDir("slow-git-");
  writeFileSync(join(dir, "git"), `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "${word}" ]; then : > "${mark}"; sleep 60; fi; done\nexec "${real}" "$@"\n`);
  chmodSync(join(dir, "git"), 0o755);
  return `${dir}:${process.env.PATH}`;
}

/** Runs lore with a git slow on `word`, sends `signal` once that git has begun, and says how lore ended and what it left. */
async function interrupted(args: string[], word: string, home: string, signal: "SIGINT" | "SIGKILL" = "SIGINT") {
  const mark = join(tempDir("mark-"), "began");
  const tmp = tempDir("lore-tmp-");
  const child = Bun.spawn([...loreArgv(), ...args], {
    cwd: r.dir,
    env: { ...process.env, PATH: slowGitOn(word, mark), LORE_HOME: home, LORE_NO_DAEMON: "1", TMPDIR: tmp, NO_COLOR: "1" },
    stdout: "ignore",
    stderr: "pipe",
  });
  const t0 = Date.now();
  while (!existsSync(mark) && Date.now() - t0 < 60_000 && child.exitCode === null) await Bun.sleep(20);
  if (!existsSync(mark)) throw new Error(`git never began ${word}: lore ended ${await child.exited}, ${await new Response(child.stderr).text()}`);
  const sent = Date.now();
  child.kill(signal);
  const code = await child.exited;
  return { code, ms: Date.now() - sent, tmp: readdirSync(tmp), running: await leftIn(r.dir) };
}

beforeAll(() => {
  root = tempDir("lore-interrupt-");
  r = new TestRepo(tempDir("lore-interrupt-repo-"));
  r.write("a.txt", lines(1, 2, 3)).commit("one", ALICE);
  r.write("a.txt", lines(1, 2, 3, 4)).commit("two", BOB);
  exported = join(root, "index.lore");
  expect(cli(r.dir, ["index", "export", exported], { LORE_HOME: join(root, "home-export") }).code).toBe(0);
  // A commit after the export: the import's catch-up has git to run.
  r.write("b.txt", lines(5, 6)).commit("three", ALICE);
}, 60_000);

afterAll(() => r.cleanup());

test("Ctrl-C during a question's git blame ends that git, leaves no spool file, and exits 130", async () => {
  const home = join(root, "home-blame");
  const end = await interrupted(["blame", "a.txt"], "blame", home);
  expect(end.code).toBe(130);
  expect(end.ms).toBeLessThan(5_000);
  expect(end.running).toEqual([]);
  expect(end.tmp).toEqual([]);
  // Nothing half-made stays: the same question answers as git does.
  const again = cli(r.dir, ["blame", "a.txt", "--json"], { LORE_HOME: home });
  expect(again.code).toBe(0);
  expect(again.json.lines).toBe(4);
}, 90_000);

test("Ctrl-C during an import's catch-up ends its git, leaves no file beside the index nor in TMPDIR, and the next answer is git's", async () => {
  const home = join(root, "home-import");
  const end = await interrupted(["index", "import", exported], "--numstat", home);
  expect(end.code).toBe(130);
  expect(end.ms).toBeLessThan(5_000);
  expect(end.running).toEqual([]);
  expect(end.tmp).toEqual([]);
  const beside = existsSync(join(home, "repos")) ? readdirSync(join(home, "repos"), { recursive: true }).map(String).filter((n) => n.includes(".import-")) : [];
  expect(beside).toEqual([]);
  const log = cli(r.dir, ["log", "--json"], { LORE_HOME: home });
  expect(log.code).toBe(0);
  expect(log.json.commits.map((c: { sha: string }) => c.sha)).toEqual(runGit(r.dir, ["log", "--format=%H"]).trim().split("\n").map((h) => h.slice(0, 12)));
}, 90_000);

test("a lore killed outright (SIGKILL) while an import's git writes its spool leaves nothing in TMPDIR", async () => {
  const end = await interrupted(["index", "import", exported], "--numstat", join(root, "home-kill"), "SIGKILL");
  expect(end.code).toBe(137);
  expect(end.tmp).toEqual([]);
  // Nothing could end that git: this test does.
  for (const pid of end.running) process.kill(pid, "SIGKILL");
}, 90_000);
