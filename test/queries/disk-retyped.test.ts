/**
 * blame of a file whose type on disk differs from HEAD's (a symlink committed, a plain file on disk
 * with the same bytes, as core.symlinks=false or a merge's conflict leaves it; or the reverse):
 * git blame sees a type change, so no line comes from HEAD, nor from a merged side of the other type.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, TestRepo } from "../helpers/git-repo.ts";
import { expectBlameLikeGit } from "../helpers/disk-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("target", lines("x"));
  symlinkSync("target", join(repo.dir, "link"));
  repo.write("plain", lines("a", "b"));
  repo.commit("a symlink and a file");
});
afterAll(() => repo.cleanup());

function reset() {
  repo.git("reset", "-q", "--hard");
  repo.git("clean", "-qfd");
}

describe("a file whose type on disk is not HEAD's", () => {
  test("a symlink in HEAD that is a plain file with the same bytes on disk: every line not committed, as git blame says", async () => {
    reset();
    rmSync(join(repo.dir, "link"));
    writeFileSync(join(repo.dir, "link"), "target");
    const r = await expectBlameLikeGit(repo.dir, "link");
    expect(r.hunks).toEqual([[1, 1, null]]);
    expect(r.worktree).toBe(true);
  });

  test("a plain file in HEAD that is a symlink on disk whose target name is its text: every line not committed", async () => {
    reset();
    rmSync(join(repo.dir, "plain"));
    symlinkSync("a\nb", join(repo.dir, "plain"));
    const r = await expectBlameLikeGit(repo.dir, "plain");
    expect(r.hunks).toEqual([[1, 2, null]]);
  });

  test("until HEAD answers at the commit, and a file of HEAD's type is clean as before", async () => {
    expect((await ask("blame", repo.dir, { path: "plain", until: "HEAD" })).worktree).toBeUndefined();
    reset();
    expect((await ask("blame", repo.dir, { path: "link" })).worktree).toBeUndefined();
  });

  test("during a merge, a side where the name is a plain file gives its lines; HEAD's symlink none", async () => {
    reset();
    const base = repo.git("rev-parse", "HEAD").trim();
    try {
      repo.git("checkout", "-q", "-b", "plain-side");
      rmSync(join(repo.dir, "link"));
      repo.write("link", lines("one", "two", "three"));
      repo.commit("link becomes a file");
      repo.git("checkout", "-q", "main");
      rmSync(join(repo.dir, "link"));
      // Its target name is the last line of the file resolved on disk below.
      symlinkSync("mine", join(repo.dir, "link"));
      repo.commit("link points elsewhere");
      // A conflict (symlink against file), resolved on disk as a file: HEAD keeps the symlink.
      spawnSync("git", ["merge", "-q", "plain-side"], { cwd: repo.dir });
      rmSync(join(repo.dir, "link"));
      writeFileSync(join(repo.dir, "link"), "one\ntwo\nmine");
      const r = await expectBlameLikeGit(repo.dir, "link");
      expect(r.hunks).toEqual([[1, 2, repo.git("rev-parse", "--short=12", "plain-side").trim()], [3, 3, null]]);
    } finally {
      spawnSync("git", ["merge", "--abort"], { cwd: repo.dir });
      repo.git("checkout", "-q", "main");
      repo.git("reset", "-q", "--hard", base);
      spawnSync("git", ["branch", "-q", "-D", "plain-side"], { cwd: repo.dir });
    }
  });
});
