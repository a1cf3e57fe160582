/** What the file on disk costs, counted in git processes: none for a clean file, one diff for a dirty one, none when asked again. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
let log: string;
const savedPath = process.env.PATH;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(...Array.from({ length: 50 }, (_, i) => `line ${i + 1}`)));
  repo.commit("first");
  repo.write("a.txt", lines(...Array.from({ length: 50 }, (_, i) => (i === 20 ? "changed" : `line ${i + 1}`))));
  repo.commit("second");
  // A git that notes each of its runs, then is the real one.
  const bin = tempDir("lore-git-count-");
  log = join(bin, "runs.log");
  const real = Bun.which("git")!;
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${real}" "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  process.env.PATH = `${bin}:${savedPath}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
  repo.cleanup();
});

const runs = () => {
  try {
    return readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

async function gitRunsOf(f: () => Promise<unknown>): Promise<string[]> {
  const before = runs().length;
  await f();
  // Finding the repository (in-process answers do it per question; the daemon remembers it) is not the file's cost.
  return runs().slice(before).filter((r) => !r.includes("rev-parse --is-bare-repository"));
}

test("a clean file costs no git process; a dirty one one diff, and nothing when asked again", async () => {
  await ask("blame", repo.dir, { path: "a.txt", startLine: 1, endLine: 21 });
  expect(await gitRunsOf(() => ask("blame", repo.dir, { path: "a.txt", startLine: 5, endLine: 25 }))).toEqual([]);
  writeFileSync(join(repo.dir, "a.txt"), "new top\n" + readFileSync(join(repo.dir, "a.txt"), "utf8"));
  const dirty = await gitRunsOf(() => ask("blame", repo.dir, { path: "a.txt", startLine: 5, endLine: 25 }));
  expect(dirty.length).toBe(1);
  expect(dirty[0]).toMatch(/ diff .*-U0 /);
  expect(await gitRunsOf(() => ask("blame", repo.dir, { path: "a.txt", startLine: 1, endLine: 30 }))).toEqual([]);
  expect(await gitRunsOf(() => ask("intent", repo.dir, { path: "a.txt", startLine: 1, endLine: 30 }))).toEqual([]);
});

test("a filter in the config is turned off on every git that reads the work tree, and git config is asked once while the config files keep their stamps", async () => {
  const r = new TestRepo();
  try {
    r.git("config", "filter.fake.clean", "false");
    r.write("a.txt", lines("one")).commit("first");
    r.write("a.txt", lines("two"));
    const configRuns = (rs: string[]) => rs.filter((x) => / config --name-only -z --get-regexp \^filter/.test(` ${x}`));
    const readers = (rs: string[]) => rs.filter((x) => / (diff|ls-files|update-index) /.test(` ${x}`));
    const first = await gitRunsOf(() => ask("review", r.dir, {}));
    expect(configRuns(first).length).toBeGreaterThan(0);
    const again = await gitRunsOf(() => ask("review", r.dir, {}));
    expect(configRuns(again)).toEqual([]);
    expect(readers(again).length).toBeGreaterThan(0);
    for (const x of readers(again)) expect(x).toContain("filter.fake.clean=");
    // A new filter changes the config file: git is asked again, and both are off.
    r.git("config", "filter.other.smudge", "false");
    const changed = await gitRunsOf(() => ask("review", r.dir, {}));
    expect(configRuns(changed).length).toBe(1);
    for (const x of readers(changed)) expect([x.includes("filter.fake.clean="), x.includes("filter.other.smudge=")]).toEqual([true, true]);
  } finally {
    r.cleanup();
  }
});
