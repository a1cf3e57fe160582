/**
 * hotspots PATH counts the newest commits under PATH, as `git log --full-history --no-merges
 * --name-only -- PATH` lists them: a quiet folder keeps its history when the repository's newest
 * commits are elsewhere, and a file renamed out of the folder counts for its old name there, as
 * git's pathspec-limited rename detection sees it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestRepo, lines, runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  for (let i = 0; i < 3; i++) repo.write("quiet/a.js", lines("a", i)).write("quiet/b.js", lines("b", i % 2)).commit(`quiet ${i}`);
  repo.write("moved/a.js", lines("a", 2)).remove("quiet/a.js").commit("move a out of quiet");
  repo.write("quiet/a.js", lines("a again")).commit("a is back");
  for (let i = 0; i < 8; i++) repo.write("busy.js", lines("busy", i)).commit(`busy ${i}`);
});
afterAll(() => repo.cleanup());

/** Commits per file under the path in git's newest `n` commits under it. */
function gitCounts(n: number): { commits: number; files: Map<string, number> } {
  const recs = runGit(repo.dir, ["log", "--no-merges", "--full-history", "-n", String(n), "--format=%x1e", "--name-only", "HEAD", "--", "quiet"]).split("\x1e").slice(1);
  const files = new Map<string, number>();
  for (const r of recs) for (const f of r.split("\n").filter(Boolean)) files.set(f, (files.get(f) ?? 0) + 1);
  return { commits: recs.length, files };
}

test("the window is the newest commits under the path, with git log -- PATH's counts", async () => {
  for (const [commits, n] of [["500", 500], ["2", 2]] as const) {
    const r = await ask("hotspots", dir(), { path: "quiet", commits, limit: 100 });
    const truth = gitCounts(n);
    expect(r.window.commits).toBe(truth.commits);
    expect(new Map(r.results.map((x: any) => [x.path, x.commits]))).toEqual(truth.files);
  }
  // The repository's newest 2 commits never touched quiet/: a window of them would say nothing.
  expect(runGit(repo.dir, ["log", "-n", "2", "--name-only", "--format="]).trim().split("\n")).toEqual(["busy.js", "busy.js"]);
});

test("a file renamed out of the folder counts that commit for its old name, as git does", async () => {
  const r = await ask("hotspots", dir(), { path: "quiet", limit: 100 });
  expect(r.results.find((x: any) => x.path === "quiet/a.js").commits).toBe(5);
  expect(Number(runGit(repo.dir, ["rev-list", "--count", "HEAD", "--", "quiet/a.js"]).trim())).toBe(5);
});

const dir = () => repo.dir;
