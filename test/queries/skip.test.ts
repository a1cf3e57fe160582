/** log and compare with skip: the rest of a cut list, as git log --skip lists it, without what the first answer said. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestRepo, lines, runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("a.txt", lines("base")).commit("base");
  repo.git("checkout", "-q", "-b", "topic");
  for (let i = 0; i < 7; i++) repo.write(i % 2 ? "src/b.txt" : "a.txt", lines("topic", i)).commit(`topic ${i}`);
});
afterAll(() => repo.cleanup());

const shas = (args: string[]) => runGit(repo.dir, ["log", "--format=%H", ...args]).trim().split("\n").map((s) => s.slice(0, 12));

test("log with skip lists the commits after the first N, as git log --skip does", async () => {
  const first = await ask("log", repo.dir, { limit: 3 });
  const rest = await ask("log", repo.dir, { limit: 3, skip: 3 });
  expect(first.commits.map((c: any) => c.sha)).toEqual(shas(["-n", "3"]));
  expect(rest.commits.map((c: any) => c.sha)).toEqual(shas(["-n", "3", "--skip", "3"]));
  expect(rest.truncated).toBe(true);
  const under = await ask("log", repo.dir, { paths: ["src"], limit: 2, skip: 1 });
  expect(under.commits.map((c: any) => c.sha)).toEqual(shas(["-n", "2", "--skip", "1", "--", "src"]));
});

test("compare with skip gives the rest of the commits and leaves out the files the first answer had", async () => {
  const first = await ask("compare", repo.dir, { base: "main", limit: 4 });
  expect(first.truncated).toBe(true);
  expect(first.files.length).toBeGreaterThan(0);
  const rest = await ask("compare", repo.dir, { base: "main", limit: 10, skip: 4 });
  expect(rest.commits.map((c: any) => c.sha)).toEqual(shas(["--skip", "4", "main..HEAD"]));
  expect([...first.commits, ...rest.commits].map((c: any) => c.sha)).toEqual(shas(["main..HEAD"]));
  expect(rest.files).toBeUndefined();
  expect(rest.truncated).toBe(false);
  expect(rest.ahead).toBe(7);
});
