/**
 * The background pass ends, and status says so: at its end every file of HEAD is counted once,
 * blamed or unblamable (filesBlamed + filesUnblamable = filesTotal, git ls-tree's blobs), and
 * churnComplete is true — on a generated repository with empty files, symlinks, a submodule,
 * binary files, a file over the pass's size limit and a file only a merge brought, and on express.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, runGit } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { Warmup } from "../../src/daemon/background.ts";
import { MAX_WARM_BYTES } from "../../src/index/blame.ts";

let repo: TestRepo;

/** Blobs of HEAD's tree by kind, as git ls-tree -r -l says. */
function treeKinds(dir: string) {
  const rows = runGit(dir, ["ls-tree", "-r", "-l", "-z", "HEAD"]).split("\0").filter(Boolean);
  const blobs = rows.map((r) => r.split(/\s+/)).filter((f) => f[1] === "blob");
  return { blobs: blobs.length, symlinks: blobs.filter((f) => f[0] === "120000").length, big: blobs.filter((f) => Number(f[3]) > MAX_WARM_BYTES).length, commits: rows.length - blobs.length };
}

/** Runs the daemon's background pass over the repository in this process, to its end. */
async function pass(dir: string): Promise<void> {
  const ix = await indexFor(dir);
  await ix.refresh();
  const w = new Warmup(ix, 2, () => {});
  w.kick();
  while (w.active) await Bun.sleep(20);
}

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("a.txt", lines("one", "two")).write("empty.txt", "").write("dir/.gitkeep", "").write("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  repo.write("no-newline.tmpl", "<p>$name</p>");
  // Just over the size the pass blames (it is left until someone asks).
  repo.write("big.txt", "x".repeat(99) + "\n".repeat(1) + ("y".repeat(99) + "\n").repeat(Math.ceil(MAX_WARM_BYTES / 100)));
  symlinkSync("a.txt", join(repo.dir, "link"));
  repo.commit("files of every kind");
  // A submodule (a gitlink): not a file.
  // (an empty folder on disk, as an uninitialised submodule has: `git add -A` keeps it then).
  mkdirSync(join(repo.dir, "vendor", "sub"), { recursive: true });
  repo.write(".gitmodules", '[submodule "vendor/sub"]\n\tpath = vendor/sub\n\turl = ./sub\n');
  repo.git("add", ".gitmodules");
  repo.git("update-index", "--add", "--cacheinfo", `160000,${repo.head()},vendor/sub`);
  repo.git("commit", "-q", "-m", "a submodule");
  // A file that only a merge brought (as express's test/fixtures/*.tmpl): no commit of its own in git log.
  repo.git("checkout", "-q", "-b", "side");
  repo.write("side.txt", lines("side")).commit("side");
  repo.git("checkout", "-q", "main");
  repo.write("a.txt", lines("one", "two", "three")).commit("main moves");
  runGit(repo.dir, ["merge", "-q", "--no-ff", "--no-commit", "side"]);
  repo.write("merge-only.txt", lines("brought by the merge"));
  repo.commit("merge side, and a file of its own");
});
afterAll(() => {
  closeAll();
  repo.cleanup();
});

test("at the end of the pass every file is blamed or unblamable, and churn is complete", async () => {
  expect(runGit(repo.dir, ["log", "--format=%s", "--", "merge-only.txt"]).trim()).toBe("merge side, and a file of its own");
  await pass(repo.dir);
  const s = await ask("status", repo.dir);
  const kinds = treeKinds(repo.dir);
  expect(kinds).toEqual({ blobs: 10, symlinks: 1, big: 1, commits: 1 });
  expect(s.filesTotal).toBe(kinds.blobs);
  // Unblamable: the symlink, the PNG and the file over the size limit (blamed when asked).
  expect({ blamed: s.filesBlamed, unblamable: s.filesUnblamable }).toEqual({ blamed: kinds.blobs - 3, unblamable: 3 });
  expect(s.churnComplete).toBe(true);
  // Asked about, the big file is blamed and counted once, as blamed.
  await ask("blame", repo.dir, { path: "big.txt", startLine: 1, endLine: 1 });
  const after = await ask("status", repo.dir);
  expect({ blamed: after.filesBlamed, unblamable: after.filesUnblamable }).toEqual({ blamed: kinds.blobs - 2, unblamable: 2 });
});

describe.skipIf(!hasExpress)("express", () => {
  test("the pass over express ends with all 213 files counted and churn complete", async () => {
    // Its history indexed already (made once for the test files that ask express): the pass is what is tested.
    const dir = await indexedClone("express");
    await pass(dir);
    const s = await ask("status", dir);
    expect(s.filesTotal).toBe(treeKinds(dir).blobs);
    expect(s.filesBlamed + s.filesUnblamable).toBe(s.filesTotal);
    expect(s.churnComplete).toBe(true);
  }, 300_000);
});
