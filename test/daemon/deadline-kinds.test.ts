/**
 * The other slow questions within a deadline, with a stand-in git that dribbles its output: history -L
 * hands on each commit git log -L printed (a true prefix, and continue gives the rest), and
 * contributors of a folder before its files are blamed says how many it blamed of how many, then
 * gives the whole answer.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BOB, lines, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, lore } from "./daemon-helpers.ts";

let repo: TestRepo;
let slowBin: string;
const homes: string[] = [];

/** A git whose git log -L prints a commit every 0.3 s, and whose blame naps 0.4 s first; every other command is the real git. */
function dribblingGit(): string {
  const real = Bun.which("git")!;
  const dir = tempDir("slow-git-");
  const script = [
    "#!/bin/sh",
    'for a in "$@"; do case "$a" in',
    `  -L*) ${real} "$@" | perl -pe 'BEGIN { $| = 1 } select(undef, undef, undef, 0.3) if /\\x1e/'; exit $?;;`,
    "  blame) sleep 0.4;;",
    "esac; done",
    `exec ${real} "$@"`,
  ].join("\n");
  writeFileSync(join(dir, "git"), script + "\n");
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

beforeAll(() => {
  repo = new TestRepo();
  // lines 1-5 of story.txt change in each of 14 commits; lib/ holds 8 files for contributors.
  for (let i = 0; i < 14; i++) {
    repo.write("story.txt", lines(...Array.from({ length: 5 }, (_, k) => `line ${k} v${i}`), "tail"));
    // Each written in two commits: a file of one commit is blamed without git blame.
    if (i < 8) repo.write(`lib/m${i}.c`, lines(`int m${i};`, `int n${i};`));
    if (i > 0 && i <= 8) repo.write(`lib/m${i - 1}.c`, lines(`int m${i - 1};`, `int n${i};`, "more"));
    repo.commit(`step ${i}`, i % 2 ? BOB : undefined);
  }
  slowBin = dribblingGit();
}, 60_000);

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
  repo.cleanup();
}, 60_000);

const ask = async (h: string, args: string[]) => {
  const r = await lore(h, repo.dir, [...args, "--json"], { PATH: `${slowBin}:${process.env.PATH}` });
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};

test("history -L past its deadline gives the commits git log -L printed so far, and continue the rest", async () => {
  const h = daemonHome();
  homes.push(h);
  await ask(h, ["status"]);
  const q = ["history", "story.txt", "-L", "1,5", "-n", "12"];
  const first = await ask(h, [...q, "--deadline", "1200ms"]);
  const want = repo.git("log", "-L1,5:story.txt", "--format=%h", "--abbrev=12", "-s", "-n", "12").trim().split("\n").filter(Boolean);
  expect(first.partial).toBe(true);
  expect(first.range).toEqual([1, 5]);
  expect(first.commits.length).toBeGreaterThan(0);
  expect(first.commits.length).toBeLessThan(12);
  expect(first.progress.found).toBeGreaterThanOrEqual(first.commits.length);
  expect(first.commits.map((c: any) => c.sha)).toEqual(want.slice(0, first.commits.length));
  const rest = await ask(h, [...q, "--continue", first.continue]);
  expect(rest.after).toBe(first.commits.length);
  const whole = await ask(h, q);
  expect([...first.commits, ...rest.commits]).toEqual(whole.commits);
  expect(whole.commits.map((c: any) => c.sha)).toEqual(want);
}, 60_000);

test("contributors of a folder not blamed yet says how many files it blamed of how many, then gives the whole answer", async () => {
  const h = daemonHome();
  homes.push(h);
  await ask(h, ["status"]);
  const first = await ask(h, ["contributors", "lib", "--deadline", "600ms"]);
  expect(first.partial).toBe(true);
  expect(first.results).toBeUndefined();
  expect(first.progress.of).toBe(8);
  expect(first.progress.files).toBeLessThan(8);
  const rest = await ask(h, ["contributors", "lib", "--continue", first.continue]);
  expect(rest.partial).toBeUndefined();
  expect(rest.files).toBe(8);
  expect(rest).toEqual(await ask(h, ["contributors", "lib"]));
}, 60_000);

test("blame within a deadline after the file changed on disk answers about the file as it is now", async () => {
  const h = daemonHome();
  homes.push(h);
  const r = new TestRepo();
  r.write("a.txt", lines("one", "two")).commit("first");
  r.write("a.txt", lines("one", "two", "three")).commit("second");
  const blame = async () => (await lore(h, r.dir, ["blame", "a.txt", "--json", "--deadline", "5s"])).json;
  const before = await blame();
  expect(before.lines).toBe(3);
  r.write("a.txt", lines("one", "two", "three", "four"));
  const after = await blame();
  expect(after.lines).toBe(4);
  expect(after.worktree).toBe(true);
  expect(after.hunks[after.hunks.length - 1]).toEqual([4, 4, null]);
  r.cleanup();
}, 60_000);
