/** contributors ranks by lines owned or by commits (git shortlog -sne), and lists bots, marked, after the people. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, CAROL, lines, runGit, TestRepo } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

const RENOVATE = { name: "renovate[bot]", email: "29139614+renovate[bot]@users.noreply.github.com" };
const ACTIONS = { name: "GitHub Actions", email: "41898282+github-actions-bot@users.noreply.github.com" };

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("app/main.js", lines(...Array.from({ length: 40 }, (_, i) => `line ${i}`))).commit("bob writes it", BOB);
  for (let i = 0; i < 3; i++) repo.write("app/small.js", lines(`alice ${i}`)).commit(`alice ${i}`, ALICE);
  repo.write("app/carol.js", lines("c1", "c2")).commit("carol", CAROL);
  for (let i = 0; i < 6; i++) repo.write("app/package.json", lines(`{"v": ${i}}`, "{}", "{}", "{}", "{}", "{}")).commit(`chore(deps): bump ${i}`, RENOVATE);
  repo.write("app/ci.txt", lines("generated")).commit("ci", ACTIONS);
  repo.write("other.txt", "x\n").commit("elsewhere", CAROL);
});
afterAll(() => repo.cleanup());

/** git shortlog -sne HEAD -- app: "Name <email>" by commits, most first. */
function shortlog(): string[] {
  return runGit(repo.dir, ["shortlog", "-sne", "HEAD", "--", "app"]).trim().split("\n").map((l) => l.replace(/^\s*\d+\t/, ""));
}

test("by commits: the people in git shortlog -sne order, with its counts, then the bots", async () => {
  const r = await ask("contributors", repo.dir, { path: "app", by: "commits", limit: 10 });
  const who = r.results.map((p: any) => `${p.author} <${p.email}>`);
  const truth = shortlog();
  const bots = (w: string) => w.startsWith("renovate[bot]") || w.startsWith("GitHub Actions");
  expect(who).toEqual([...truth.filter((w) => !bots(w)), ...truth.filter(bots)]);
  const counts = runGit(repo.dir, ["shortlog", "-sne", "HEAD", "--", "app"]).trim().split("\n").map((l) => Number(l.trim().split("\t")[0]));
  expect(Object.fromEntries(r.results.map((p: any) => [`${p.author} <${p.email}>`, p.commits]))).toEqual(Object.fromEntries(truth.map((w, i) => [w, counts[i]])));
  expect(r.results.filter((p: any) => p.bot).map((p: any) => p.author)).toEqual(["renovate[bot]", "GitHub Actions"]);
});

test("by lines (the default): most lines first, bots after the people even when they own more", async () => {
  const r = await ask("contributors", repo.dir, { path: "app", limit: 10 });
  expect(r.results.map((p: any) => [p.author, p.lines, p.bot])).toEqual([
    ["Bob Example", 40, undefined],
    ["Carol Ünicode", 2, undefined],
    ["Alice Example", 1, undefined],
    ["renovate[bot]", 6, true],
    ["GitHub Actions", 1, true],
  ]);
  // commits beside lines: git shortlog's count under the path.
  expect(r.results.find((p: any) => p.author === "Alice Example").commits).toBe(3);
  const bad = await ask("contributors", repo.dir, { path: "app", by: "age" }).catch((e) => e);
  expect(bad.code).toBe("BAD_ARGUMENT");
});
