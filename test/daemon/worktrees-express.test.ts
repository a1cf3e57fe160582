/** A real clone: express with a linked worktree at an older commit in .claude/worktrees answers there, as git does. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../helpers/git-repo.ts";
import { gitBlame, gitLogFile } from "../helpers/git-truth.ts";
import { gitDirHash } from "../helpers/disk-truth.ts";
import { hasExpress, cloneExpress } from "../helpers/express.ts";
import { daemonHome, discardHome, loreSync } from "./daemon-helpers.ts";

let home: string;

beforeAll(() => {
  home = daemonHome();
});

afterAll(async () => {
  await discardHome(home);
}, 60_000);

const ask = (cwd: string, args: string[]) => {
  const r = loreSync(home, cwd, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};
/** lore's blame hunks as one sha per line. */
const perLine = (hunks: any[]) => hunks.flatMap(([a, b, sha]: [number, number, string]) => Array.from({ length: b - a + 1 }, () => sha));
const gitShas = (dir: string, path: string) => gitBlame(dir, "HEAD", path).map((o) => o.sha);

describe.if(hasExpress)("a real clone", () => {
  test("express with a worktree at an older commit in .claude/worktrees: blame and history answer there, as git does", () => {
    const clone = cloneExpress();
    try {
      const wt = join(clone, ".claude", "worktrees", "old");
      runGit(clone, ["worktree", "add", "-q", "--detach", wt, "HEAD~300"]);
      const was = gitDirHash(clone);
      const path = "lib/application.js";
      const r = ask(clone, ["blame", join(wt, path), "-L", "1,80"]);
      expect(r.repo).toBe(wt);
      expect(perLine(r.hunks)).toEqual(gitShas(wt, path).slice(0, 80));
      const h = ask(clone, ["history", join(wt, path), "-n", "30"]);
      expect(h.commits.map((c: any) => c.sha)).toEqual(gitLogFile(wt, "HEAD", path, true, 30).map((e) => e.sha));
      expect(perLine(ask(clone, ["blame", path, "-L", "1,80"]).hunks)).toEqual(gitShas(clone, path).slice(0, 80));
      expect(gitDirHash(clone)).toBe(was);
    } finally {
      rmSync(join(clone, ".."), { recursive: true, force: true });
    }
  }, 120_000);
});
