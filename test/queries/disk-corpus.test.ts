/** The file on disk in real clones (express, hono): every way an agent edits, compared line by line with git blame -- PATH, git diff and git log -L. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS, hasExpress } from "../helpers/express.ts";
import { lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { expectBlameLikeGit, expectIntentLikeGit, expectLineHistoryLikeGit, gitDirHash } from "../helpers/disk-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

const hasHono = existsSync(join(CORPUS, "hono.bundle")) || process.env.CI === "true";
const clones: Record<string, string> = {};

beforeAll(() => {
  isolateHome();
  const root = tempDir("lore-disk-corpus-");
  for (const name of ["express", "hono"]) {
    if (!existsSync(join(CORPUS, `${name}.bundle`))) continue;
    runGit(root, ["clone", "-q", join(CORPUS, `${name}.bundle`), name]);
    clones[name] = join(root, name);
  }
}, 120_000);
afterAll(() => {
  for (const dir of Object.values(clones)) runGit(dir, ["reset", "-q", "--hard"]);
});

function reset(dir: string) {
  runGit(dir, ["reset", "-q", "--hard"]);
  runGit(dir, ["clean", "-qfd"]);
}

function edit(dir: string, path: string, f: (ls: string[]) => string[]) {
  const full = join(dir, path);
  const ls = readFileSync(full, "utf8").split("\n");
  ls.pop();
  writeFileSync(full, lines(...f(ls)));
}

/** The edits an agent makes, each followed by the same checks. */
const EDITS: [string, (ls: string[]) => string[]][] = [
  ["insert two lines at the top", (ls) => ["// added by the agent", "// and another", ...ls]],
  ["delete a block", (ls) => [...ls.slice(0, 40), ...ls.slice(60)]],
  ["change lines in the middle", (ls) => ls.map((l, i) => (i >= 100 && i < 104 ? l + " // changed" : l))],
  ["append at the end", (ls) => [...ls, "", "// appended", "export const late = 1"]],
  ["insert, delete and change at once", (ls) => [...ls.slice(0, 5), "inserted", ...ls.slice(5, 70), ...ls.slice(75, 120).map((l) => l.toUpperCase()), ...ls.slice(120)]],
];

async function checkAll(dir: string, path: string) {
  const r = await expectBlameLikeGit(dir, path);
  expect(r.worktree).toBe(true);
  await expectIntentLikeGit(dir, path, 1, 8);
  await expectIntentLikeGit(dir, path, 95, 110);
  await expectLineHistoryLikeGit(dir, path, 3, 12);
}

describe.skipIf(!hasExpress)("the file on disk in express", () => {
  const path = "lib/response.js";
  for (const [what, f] of EDITS)
    test(`${what}: blame, intent and history -L equal git's`, async () => {
      const dir = clones.express!;
      reset(dir);
      edit(dir, path, f);
      await checkAll(dir, path);
    });

  test("staged and unstaged edits mixed, a clean file beside them, a staged rename", async () => {
    const dir = clones.express!;
    reset(dir);
    edit(dir, path, (ls) => ["// staged", ...ls]);
    runGit(dir, ["add", path]);
    edit(dir, path, (ls) => [...ls.slice(0, 200), "// unstaged", ...ls.slice(200)]);
    await checkAll(dir, path);
    const clean = await expectBlameLikeGit(dir, "lib/request.js");
    expect(clean.worktree).toBeUndefined();
    runGit(dir, ["mv", "lib/application.js", "lib/app.js"]);
    edit(dir, "lib/app.js", (ls) => [...ls.slice(0, 10), "// moved", ...ls.slice(10)]);
    await expectBlameLikeGit(dir, "lib/app.js");
    expect((await ask("blame", dir, { path: "lib/application.js" })).worktree).toBeUndefined();
  });

  test("CRLF line ends written over an LF file are every line changed, as git blame says", async () => {
    const dir = clones.express!;
    reset(dir);
    writeFileSync(join(dir, "lib/request.js"), readFileSync(join(dir, "lib/request.js"), "utf8").replace(/\n/g, "\r\n"));
    const r = await expectBlameLikeGit(dir, "lib/request.js", { startLine: 1, endLine: 40 });
    expect(r.hunks).toEqual([[1, 40, null]]);
  });
});

describe.skipIf(!hasHono)("the file on disk in hono", () => {
  const path = "src/hono-base.ts";

  test("the issue's case: two lines inserted at the top, then blame -L 12,16 and intent -L 1,2 and 5,6", async () => {
    const dir = clones.hono!;
    reset(dir);
    edit(dir, path, (ls) => ["/** a module doc the agent just wrote */", "// second", ...ls]);
    const before = gitDirHash(dir);
    const b = await expectBlameLikeGit(dir, path, { startLine: 12, endLine: 16 });
    expect(b.lines).toBe(548);
    const mine = await expectIntentLikeGit(dir, path, 1, 2);
    expect(mine).toMatchObject({ commits: [], uncommitted: [[1, 2]], worktree: true });
    await expectIntentLikeGit(dir, path, 5, 6);
    expect(gitDirHash(dir)).toBe(before);
  });

  for (const [what, f] of EDITS)
    test(`${what}: blame, intent and history -L equal git's`, async () => {
      const dir = clones.hono!;
      reset(dir);
      edit(dir, path, f);
      await checkAll(dir, path);
    });

  test("an untracked file and a newly added one are all uncommitted", async () => {
    const dir = clones.hono!;
    reset(dir);
    writeFileSync(join(dir, "src/new-helper.ts"), lines("export const a = 1", "export const b = 2"));
    expect(await ask("blame", dir, { path: "src/new-helper.ts" })).toMatchObject({ lines: 2, hunks: [[1, 2, null]], commits: {}, worktree: true });
    runGit(dir, ["add", "src/new-helper.ts"]);
    await expectBlameLikeGit(dir, "src/new-helper.ts");
    expect(await ask("intent", dir, { path: "src/new-helper.ts", startLine: 1, endLine: 2 })).toMatchObject({ commits: [], uncommitted: [[1, 2]] });
  });
});
