/** -L :NAME of the file on disk (history, blame, intent): the function's lines where git blame -L :NAME -- PATH finds them. */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { expectBlameLikeGit, expectLineHistoryLikeGit, gitDirHash } from "../helpers/disk-truth.ts";
import { BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { gitBlame } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

beforeAll(() => {
  isolateHome();
});

describe("-L :NAME in the file on disk", () => {
  const shape = (extra: string[] = []) =>
    lines("import math", "", "class Shape:", "    def area(self):", "        return 0", "", ...extra, "    def name(self):", "        return 'shape'", "", "def helper():", "    return 1");

  test("history -L :NAME finds the function where git blame -L :NAME -- PATH finds it on disk (the diff=python funcname rule), mapped to HEAD's lines as -L A,B", async () => {
    const r = new TestRepo();
    try {
      r.write(".gitattributes", "*.py diff=python\n");
      r.write("shape.py", shape());
      r.commit("shape");
      r.write("shape.py", shape().replace("return 'shape'", "return 'Shape'"));
      r.commit("name it", BOB);
      // On disk: a new method above name(), and name() changed.
      r.write("shape.py", shape(["    def sides(self):", "        return None", ""]).replace("return 'shape'", "return 'a shape'"));
      for (const name of ["name", "sides", "area", "helper"]) {
        const truth = gitFunctionLines(r.dir, name);
        const before = gitDirHash(r.dir);
        const mine = await ask("history", r.dir, { path: "shape.py", lines: `:${name}`, limit: 1000 });
        expect(gitDirHash(r.dir)).toBe(before);
        expect({ name, range: mine.range }).toEqual({ name, range: truth });
        expect(mine).toEqual(await expectLineHistoryLikeGit(r.dir, "shape.py", truth[0], truth[1]));
      }
      // An indented def is a function only by the python rule: without the attribute git finds none.
      r.write(".gitattributes", "");
      await expect(ask("history", r.dir, { path: "shape.py", lines: ":sides" })).rejects.toMatchObject({ code: "BAD_RANGE" });
      expect((await ask("history", r.dir, { path: "shape.py", lines: ":helper" })).range).toEqual(gitFunctionLines(r.dir, "helper"));
      r.write("fresh.py", lines("def fresh():", "    pass"));
      await expect(ask("history", r.dir, { path: "fresh.py", lines: ":fresh" })).rejects.toMatchObject({ code: "BAD_RANGE" });
    } finally {
      r.cleanup();
    }
  });
});

/** The on-disk lines git blame -L :NAME -- shape.py finds. */
function gitFunctionLines(dir: string, name: string): [number, number] {
  const out = spawnSync("git", ["blame", "--porcelain", `-L:${name}`, "--", "shape.py"], { cwd: dir, encoding: "utf8" }).stdout;
  const ls = [...out.matchAll(/^[0-9a-f]{40} \d+ (\d+)/gm)].map((m) => Number(m[1]));
  return [Math.min(...ls), Math.max(...ls)];
}

/** shape.py (funcnames by the python rule) in two commits: the file, then name() changed by Bob. */
function shapeHistory(): TestRepo {
  const r = new TestRepo();
  r.write(".gitattributes", "*.py diff=python\n");
  r.write("shape.py", lines("class Shape:", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'shape'"));
  r.commit("shape");
  r.write("shape.py", lines("class Shape:", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'Shape'"));
  r.commit("name it", BOB);
  return r;
}

/** shape.py edited on disk: a new method above area(), and name() changed. */
const SHAPE_ON_DISK = lines("class Shape:", "    def sides(self):", "        return None", "", "    def area(self):", "        return 0", "", "    def name(self):", "        return 'a shape'");

describe("blame -L :NAME", () => {
  test("blames the function's lines where git blame -L :NAME -- PATH finds them: on disk when the file differs from HEAD's, at the commit with until", async () => {
    const r = shapeHistory();
    try {
      const clean = await lore(r.dir, ["blame", "shape.py", "-L", ":name"]);
      expect(clean.worktree).toBeUndefined();
      expect(clean.range).toEqual(gitFunctionLines(r.dir, "name"));
      await expectBlameLikeGit(r.dir, "shape.py", { startLine: clean.range[0], endLine: clean.range[1] });
      r.write("shape.py", SHAPE_ON_DISK);
      for (const name of ["name", "sides", "area"]) {
        const mine = await lore(r.dir, ["blame", "shape.py", "-L", `:${name}`]);
        const [a, b] = gitFunctionLines(r.dir, name);
        expect({ name, range: mine.range }).toEqual({ name, range: [a, b] });
        expect(mine).toEqual(await expectBlameLikeGit(r.dir, "shape.py", { startLine: a, endLine: b }));
      }
      const atHead = await lore(r.dir, ["blame", "shape.py", "-L", ":name", "--until", "HEAD"]);
      expect(atHead.range).toEqual([5, 6]);
      expect(atHead.hunks).toEqual(gitBlameHunksAtHead(r.dir, 5, 6));
      await expect(lore(r.dir, ["blame", "shape.py", "-L", ":nothing"])).rejects.toThrow(/no match/);
    } finally {
      r.cleanup();
    }
  });
});

describe("intent -L :NAME", () => {
  test("explains the function's lines where git blame -L :NAME -- PATH finds them, as intent -L A,B of those lines does; on disk, and at the commit with until", async () => {
    const r = shapeHistory();
    try {
      const same = async (name: string, until: string[] = []) => {
        const byName = await lore(r.dir, ["intent", "shape.py", "-L", `:${name}`, ...until]);
        const [a, b] = byName.range;
        expect(await lore(r.dir, ["intent", "shape.py", "-L", `${a},${b}`, ...until])).toEqual(byName);
        return byName;
      };
      const clean = await same("name");
      expect(clean.range).toEqual(gitFunctionLines(r.dir, "name"));
      expect(clean.commits.map((c: any) => c.message.trim())).toEqual(["name it", "shape"]);
      r.write("shape.py", SHAPE_ON_DISK);
      for (const name of ["name", "sides", "area"]) {
        const mine = await same(name);
        expect({ name, range: mine.range, worktree: mine.worktree }).toEqual({ name, range: gitFunctionLines(r.dir, name), worktree: true });
      }
      // sides() is new on disk: every line of it is not committed.
      expect((await same("sides")).uncommitted).toEqual([gitFunctionLines(r.dir, "sides")]);
      expect((await same("name", ["--until", "HEAD"])).range).toEqual([5, 6]);
      await expect(lore(r.dir, ["intent", "shape.py", "-L", ":nothing"])).rejects.toThrow(/no match/);
      await expect(lore(r.dir, ["intent", "shape.py"])).rejects.toThrow(/BAD_ARGUMENT/);
    } finally {
      r.cleanup();
    }
  });
});

/** lore's CLI answer (--json), or the error it printed. */
async function lore(dir: string, args: string[]): Promise<any> {
  const c = loreCommand([...args, "--json"]);
  const r = spawnSync(c.command, c.args, { cwd: dir, env: { ...process.env, LORE_NO_DAEMON: "1", NO_COLOR: "1" }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
  return JSON.parse(r.stdout);
}

/** git blame -L a,b HEAD as [start, end, sha] per line run. */
function gitBlameHunksAtHead(dir: string, a: number, b: number): [number, number, string][] {
  return gitBlame(dir, "HEAD", "shape.py").slice(a - 1, b).reduce<[number, number, string][]>((out, l, i) => {
    const last = out[out.length - 1];
    if (last && last[2] === l.sha) last[1] = a + i;
    else out.push([a + i, a + i, l.sha]);
    return out;
  }, []);
}
