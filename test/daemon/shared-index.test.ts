/**
 * The daemon and a `--no-daemon` lore share one index file. When the other one rebuilds it
 * (a new .mailmap starts the index over, so row ids are handed out again), what the daemon
 * remembers in memory must not answer for rows that are gone.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { gitBlame } from "../helpers/git-truth.ts";
import { daemonHome, discardHome, loreSync } from "./daemon-helpers.ts";

let repo: TestRepo;
let home: string;

const ask = (args: string[], extra: Record<string, string> = {}) => {
  const r = loreSync(home, repo.dir, [...args, "--json"], extra);
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};

/** Lines per author as git blame says, over every file. */
function truth(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of ["a.txt", "b.txt", "c.txt"]) for (const o of gitBlame(repo.dir, "HEAD", f)) out[o.author] = (out[o.author] ?? 0) + 1;
  return out;
}

const byAuthor = (r: any) => Object.fromEntries(r.results.map((x: any) => [x.author, x.lines]));

beforeAll(() => {
  home = daemonHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(1, 2, 3)).commit("a", ALICE);
  repo.write("b.txt", lines(1, 2)).commit("b", BOB);
  repo.write("c.txt", lines(1)).write("a.txt", lines(1, 2, 3, 4)).commit("c", BOB);
});

afterAll(async () => {
  await discardHome(home);
  repo.cleanup();
}, 60_000);

test("after a --no-daemon lore rebuilt the index, the daemon's answers are still git's", () => {
  // The daemon answers and remembers blames, their commits and their line counts.
  expect(byAuthor(ask(["contributors"]))).toEqual(truth());
  for (const f of ["a.txt", "b.txt", "c.txt"]) ask(["blame", f]);

  // Bob becomes Alice: the in-process lore sees the new .mailmap first and starts the index over.
  repo.write(".mailmap", `${ALICE.name} <${ALICE.email}> ${BOB.name} <${BOB.email}>\n`);
  expect(byAuthor(ask(["contributors"], { LORE_NO_DAEMON: "1" }))).toEqual(truth());
  // The index now holds blames in another order under reused ids.
  for (const f of ["c.txt", "b.txt"]) ask(["blame", f], { LORE_NO_DAEMON: "1" });

  expect(byAuthor(ask(["contributors"]))).toEqual(truth());
  for (const f of ["a.txt", "b.txt", "c.txt"]) {
    const shas = ask(["blame", f]).hunks.flatMap((h: any) => Array.from({ length: h[1] - h[0] + 1 }, () => h[2]));
    expect({ f, shas }).toEqual({ f, shas: gitBlame(repo.dir, "HEAD", f).map((o) => o.sha) });
  }
});

test("after a --no-daemon lore indexed fewer commits (LORE_MAX_COMMITS), the daemon answers from the whole history again", () => {
  const full = ask(["history", "a.txt"]).commits.map((c: any) => c.sha);
  expect(full).toHaveLength(2);
  expect(ask(["history", "a.txt"], { LORE_NO_DAEMON: "1", LORE_MAX_COMMITS: "1" }).commits).toHaveLength(1);
  expect(ask(["history", "a.txt"]).commits.map((c: any) => c.sha)).toEqual(full);
  expect(ask(["status"]).commitsIndexed).toBe(3);
});
