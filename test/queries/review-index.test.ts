/** review's diff against a refreshed copy of the index: the same files as git diff HEAD says, whatever the index's stat data, and nothing written in .git. */
import { beforeAll, expect, test } from "bun:test";
import { statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { repoHash } from "../helpers/repo-hash.ts";

let r: TestRepo;

/** git's own list: status and path of each file differing from HEAD, untracked ones as A (a path git diff lists keeps its record). */
function gitFiles(repo: TestRepo): string[] {
  const out = repo.git("-c", "diff.autoRefreshIndex=false", "diff", "--name-status", "--no-renames", "HEAD").trim().split("\n").filter(Boolean).map((l) => l.replace("\t", " "));
  const listed = new Set(out.map((l) => l.slice(2)));
  for (const p of repo.git("ls-files", "--others", "--exclude-standard").trim().split("\n").filter(Boolean)) if (!listed.has(p)) out.push(`A ${p}`);
  return out.sort((a, b) => (a.slice(2) < b.slice(2) ? -1 : 1));
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
