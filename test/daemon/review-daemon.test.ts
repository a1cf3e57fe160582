/** review through a real daemon: an edit, a staged file and a moved BASE show in the next answer (no answer cache keeps it). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, loreSync } from "./daemon-helpers.ts";

let repo: TestRepo;
let home: string;

const review = (...args: string[]) => {
  const r = loreSync(home, repo.dir, ["review", ...args, "--json"]);
  if (r.code !== 0) throw new Error(`lore review ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};

beforeAll(() => {
  home = daemonHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(1, 2, 3)).write("b.txt", lines("x"));
  repo.commit("Start", ALICE);
}, 60_000);

afterAll(async () => {
  await discardHome(home);
  repo.cleanup();
}, 60_000);

test("the daemon answers each review from the work tree as it is now", () => {
  expect(review().files).toEqual([]);
  repo.write("a.txt", lines(1, "two", 3));
  expect(review().files.map((f: any) => f.path)).toEqual(["a.txt"]);
  repo.write("b.txt", lines("y"));
  expect(review().files.map((f: any) => f.path)).toEqual(["a.txt", "b.txt"]);
  expect(review("--staged").files).toEqual([]);
  repo.git("add", "b.txt");
  expect(review("--staged").files.map((f: any) => f.path)).toEqual(["b.txt"]);
  repo.git("checkout", "-q", "-b", "topic");
  repo.commit("Topic", BOB);
  repo.git("branch", "-f", "main", "HEAD");
  expect(review("main").files).toEqual([]);
  repo.git("branch", "-f", "main", "HEAD~1");
  expect(review("main").files.map((f: any) => f.path)).toEqual(["a.txt", "b.txt"]);
}, 60_000);
