/**
 * cochange and hotspots read a window once and keep it while the index is unchanged: every
 * change to the index (a new commit, churn filled in, a new mailmap) must show in the next answer.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { gitCochange } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(1)).write("b.txt", lines(1)).commit("a and b");
  repo.write("a.txt", lines(1, 2)).write("c.txt", lines(1)).commit("a and c", BOB);
});
afterAll(() => repo.cleanup());

/** What lore says of a.txt's co-change, as path → count. */
async function cochangeOfA(): Promise<Record<string, number>> {
  const r = await ask("cochange", repo.dir, { paths: ["a.txt"] });
  return Object.fromEntries(r.results.map((x: any) => [x.path, x.count]));
}

const truthOfA = () => Object.fromEntries([...gitCochange(repo.dir, "HEAD", "a.txt", 500, 50).counts].map(([p, n]) => [p, n]));
const hotspot = async (path: string) => (await ask("hotspots", repo.dir, {})).results.find((x: any) => x.path === path);

test("a new commit shows in the next cochange and hotspots, asked in the same process", async () => {
  expect(await cochangeOfA()).toEqual({ "b.txt": 1, "c.txt": 1 });
  expect(await hotspot("a.txt")).toMatchObject({ commits: 2, authors: 2, additions: 2 });

  repo.write("a.txt", lines(1, 2, 3)).write("b.txt", lines(1, 2)).commit("a and b again");
  expect(await cochangeOfA()).toEqual({ "b.txt": 2, "c.txt": 1 });
  expect(await cochangeOfA()).toEqual(truthOfA());
  expect(await hotspot("a.txt")).toMatchObject({ commits: 3, additions: 3, lines: 3 });
  expect(await hotspot("b.txt")).toMatchObject({ commits: 2, additions: 2 });
});

test("a new mailmap shows in hotspots' author count", async () => {
  expect(await hotspot("a.txt")).toMatchObject({ authors: 2 });
  repo.write(".mailmap", `${ALICE.name} <${ALICE.email}> ${BOB.name} <${BOB.email}>\n`).commit("Bob is Alice");
  expect(await hotspot("a.txt")).toMatchObject({ authors: 1, commits: 3 });
});

test("a reset takes both back", async () => {
  repo.git("reset", "-q", "--hard", "HEAD~2");
  expect(await cochangeOfA()).toEqual({ "b.txt": 1, "c.txt": 1 });
  expect(await hotspot("a.txt")).toMatchObject({ commits: 2, authors: 2 });
});
