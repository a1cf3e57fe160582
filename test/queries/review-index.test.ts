/** review's diff against a refreshed copy of the index: the same files as git diff HEAD says, whatever the index's stat data, and nothing written in .git. */
import { beforeAll, expect, test } from "bun:test";
import { cpSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { repoHash } from "../helpers/repo-hash.ts";

let r: TestRepo;

/**
 * git's own list: status and path of each file whose content differs from HEAD, untracked ones as
 * A (a path git diff lists keeps its record). Asked in a copy of the repository, where every
 * entry's stat data is stale (new inodes and ctimes), so git's plain diff compares every file's
 * content and may write its own index without touching the one under test.
 */
function gitFiles(repo: TestRepo): string[] {
  const dir = tempDir("lore-review-ref-");
  try {
    cpSync(repo.dir, dir, { recursive: true, preserveTimestamps: true });
    const out = runGit(dir, ["diff", "--name-status", "--no-renames", "HEAD"]).trim().split("\n").filter(Boolean).map((l) => l.replace("\t", " "));
    const listed = new Set(out.map((l) => l.slice(2)));
    for (const p of runGit(dir, ["ls-files", "--others", "--exclude-standard"]).trim().split("\n").filter(Boolean)) if (!listed.has(p)) out.push(`A ${p}`);
    return out.sort((a, b) => (a.slice(2) < b.slice(2) ? -1 : 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loreFiles = async (repo: TestRepo) => ((await ask("review", repo.dir)).files as { path: string; status: string }[]).map((f) => `${f.status ?? "M"} ${f.path}`);

beforeAll(() => {
  isolateHome();
  r = new TestRepo();
  for (let i = 1; i <= 8; i++) r.write(`src/f${i}.js`, lines(`const f${i} = ${i};`, "export default 1;"));
  r.commit("Start");
  // Racily clean, as after a fresh clone: every file as new as the index itself.
  const t = statSync(join(r.dir, ".git", "index")).mtime;
  for (let i = 1; i <= 8; i++) utimesSync(join(r.dir, `src/f${i}.js`), t, t);
});

test("review of a racily clean index lists what git diff HEAD lists, and writes nothing in .git", async () => {
  r.write("src/f2.js", lines("const f2 = 20;", "export default 1;"));
  const before = repoHash(r.dir);
  const first = await loreFiles(r);
  const again = await loreFiles(r);
  expect(repoHash(r.dir)).toBe(before);
  expect(first).toEqual(gitFiles(r));
  expect(again).toEqual(first);
});

test("a change staged or unstaged after a review is in the next one", async () => {
  await loreFiles(r);
  r.write("src/new.js", lines("new"));
  r.git("add", "src/new.js");
  r.git("rm", "-q", "--cached", "src/f3.js");
  expect(await loreFiles(r)).toEqual(gitFiles(r));
  // The same size, within the same second: git's racy check on the copy still reads it.
  r.write("src/f5.js", lines("const f5 = 9;", "export default 1;"));
  expect(await loreFiles(r)).toEqual(gitFiles(r));
  r.git("checkout", "-q", "--", "src/f2.js");
  expect(await loreFiles(r)).toEqual(gitFiles(r));
});

test("a split index is read as it is, never copied: the same files as git diff HEAD", async () => {
  const s = new TestRepo();
  s.write("a.js", lines("a")).write("b.js", lines("b"));
  s.commit("Start");
  s.git("update-index", "--split-index");
  s.write("a.js", lines("a2")).write("c.js", lines("c"));
  const before = repoHash(s.dir);
  const files = await loreFiles(s);
  expect(repoHash(s.dir)).toBe(before);
  expect(files).toEqual(gitFiles(s));
});

test("a file changed within the second its entry was staged, at the same size, is in the review: the copy keeps the index's racy timestamp", async () => {
  const s = new TestRepo();
  // With ctime not trusted, a same-size rewrite within one second matches the entry's stat data; only git's racy check sees it.
  s.git("config", "core.trustctime", "false");
  s.write("a.js", lines("a1")).write("b.js", lines("b"));
  s.commit("Start");
  const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  const a = join(s.dir, "a.js");
  utimesSync(a, second, second);
  s.git("add", "a.js");
  utimesSync(join(s.dir, ".git", "index"), second, second);
  writeFileSync(a, lines("a3"));
  utimesSync(a, second, second);
  const files = await loreFiles(s);
  expect(files).toEqual(gitFiles(s));
  expect(files).toEqual(["M a.js"]);
});
