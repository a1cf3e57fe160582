/** The small repository the on-disk tests edit (src/app.js in three commits, an odd name, a CRLF file), and how they edit and reset it. */
import { afterAll, beforeAll } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BOB, CAROL, lines, TestRepo } from "./git-repo.ts";
import { isolateHome } from "./lore.ts";

/** `line N TAG` for N from `from` to `to`: lines distinct enough that git blame tells them apart. */
export const numbered = (from: number, to: number, tag = "v1") => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i} ${tag}`);

/** src/app.js (30 lines; Bob changes 5 and 20, Carol 10), "notes/a b ü.txt", moved.txt (12 lines) and crlf.txt. */
export function buildDiskRepo(): TestRepo {
  const repo = new TestRepo();
  repo.write("src/app.js", lines(...numbered(1, 30)));
  repo.write("notes/a b ü.txt", lines("alpha", "beta", "gamma", "delta"));
  repo.write("moved.txt", lines(...numbered(1, 12, "m")));
  repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  repo.commit("first");
  const second = numbered(1, 30);
  second[4] = "line 5 v2";
  second[19] = "line 20 v2";
  repo.write("src/app.js", lines(...second));
  repo.commit("second", BOB);
  second[9] = "line 10 v3";
  repo.write("src/app.js", lines(...second));
  repo.commit("third", CAROL);
  return repo;
}

/** Puts the work tree and staging area back to HEAD. */
export function resetToHead(repo: TestRepo): void {
  repo.git("reset", "-q", "--hard");
  repo.git("clean", "-qfd");
}

/** Rewrites a file's lines on disk (each ends with a newline). */
export function editLines(repo: TestRepo, path: string, f: (ls: string[]) => string[]): void {
  const full = join(repo.dir, path);
  const ls = readFileSync(full, "utf8").split("\n");
  ls.pop();
  writeFileSync(full, lines(...f(ls)));
}

/**
 * A test file's own disk repository: built once before its tests (in a home of their own), removed
 * after; `built` hears of it. Returns how the tests reset and edit it.
 */
export function useDiskRepo(built: (repo: TestRepo) => void): { reset: () => void; edit: (path: string, f: (ls: string[]) => string[]) => void } {
  let repo: TestRepo | undefined;
  beforeAll(() => {
    isolateHome();
    repo = buildDiskRepo();
    built(repo);
  });
  afterAll(() => repo?.cleanup());
  return { reset: () => resetToHead(repo!), edit: (path, f) => editLines(repo!, path, f) };
}
