/** review's missing ranked from the change as a whole, on small built histories: each kind of evidence, the why line checked against git log, and changes that give it little to go on. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { diffImports } from "../../src/git/diff-imports.ts";
import { patchLines } from "../../src/git/patch-lines.ts";
import { resolveImport } from "../../src/queries/run/missing-imports.ts";
import { related } from "../../src/queries/run/missing-names.ts";
import { BOB, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let base: TestRepo;

/** A fresh copy of the built repository: each test changes its own work tree. */
function copy(): TestRepo {
  const dir = join(tempDir(), "repo");
  cpSync(base.dir, dir, { recursive: true });
  return new TestRepo(dir, false);
}

/** The commits `git log` lists for these paths (the window review reads, all of it here). */
const logOf = (r: TestRepo, ...paths: string[]) => r.git("log", "--format=%H", "--", ...paths).split("\n").filter(Boolean);

/** A row a reason with no share (a name, an import, a word) puts there, shown for what else it has: the repository's habit, its share of the newest commits as git log counts them, said in why. */
function habitRow(r: TestRepo, row: any, path: string, reason: string): void {
  const recent = r.git("log", "-n", "100", "--format=%H").trim().split("\n");
  const touched = logOf(r, path).filter((c) => recent.includes(c)).length;
  expect(row.why).toBe(`${reason}; changed in ${touched} of the repository's last ${recent.length} commits`);
  expect(row.confidence).toBe(Math.max(0.01, Math.round((touched / recent.length) * 100) / 100));
}

beforeAll(() => {
  isolateHome();
  base = new TestRepo();
  // A source file and its test, never committed together.
  base.write("src/foo.ts", "export const value = 1;\n").write("README.md", "# readme\n").commit("Add foo");
  base.write("src/foo.test.ts", "test('foo');\n").commit("Test foo");
  // alpha and beta changed with xeno together twice; alpha alone with yolk three times.
  for (const f of ["alpha", "beta", "xeno", "yolk"]) base.write(`pair/${f}.txt`, "1\n").commit(`Add ${f}`);
  for (let i = 2; i < 4; i++) base.write("pair/alpha.txt", `${i}\n`).write("pair/beta.txt", `${i}\n`).write("pair/xeno.txt", `${i}\n`).commit(`Round ${i}`);
  for (let i = 4; i < 7; i++) base.write("pair/alpha.txt", `${i}\n`).write("pair/yolk.txt", `${i}\n`).commit(`Round ${i}`);
  // main changed with old long ago, then alone twenty times, then with new twice.
  base.write("rec/main.txt", "0\n").commit("Add main");
  for (let i = 1; i < 4; i++) base.write("rec/main.txt", `${i}\n`).write("rec/old.txt", `${i}\n`).commit(`Old ${i}`);
  for (let i = 4; i < 24; i++) base.write("rec/main.txt", `${i}\n`).commit(`Alone ${i}`);
  for (let i = 24; i < 26; i++) base.write("rec/main.txt", `${i}\n`).write("rec/new.txt", `${i}\n`).commit(`New ${i}`);
  base.write("logo.png", new Uint8Array([0x89, 0x50, 0, 1, 2, 0, 3])).write("pair/logo-notes.txt", "png\n").commit("Add the logo", BOB);
  // Five plugins side by side, each added alone; a page about zebras.
  for (const p of ["ant", "bee", "cat", "dog", "eel"]) base.write(`plug/${p}/index.ts`, "export {};\n").commit(`Add the ${p} plugin`);
  base.write("docs/zebra.md", "# Stripes\n").commit("Document stripes");
  // A build folder beside the sources, each file added alone.
  for (const f of ["a", "b", "c"]) {
    base.write(`lib/${f}.js`, "1\n").commit(`Add lib/${f}`);
    base.write(`out/${f}.js`, "1\n").commit(`Build ${f}`);
  }
  // m1's snapshot changed in every one of m1's commits; busy changed once with each of m1, m2, m3.
  base.write("part/m1.ts", "1\n").write("part/m1.snap", "1\n").write("part/busy.ts", "1\n").commit("Add m1");
  for (let i = 2; i < 4; i++) base.write("part/m1.ts", `${i}\n`).write("part/m1.snap", `${i}\n`).commit(`m1 ${i}`);
  for (const m of ["m2", "m3"]) base.write(`part/${m}.ts`, "1\n").write("part/busy.ts", `${m}\n`).commit(`Add ${m}`);
}, 60_000);

afterAll(() => base.cleanup());

describe("review's missing: the evidence", () => {
  test("the test beside a changed file, never committed with it, is named by its place; its confidence is the share why says beside it", async () => {
    const r = copy();
    r.write("src/foo.ts", "export const value = 2;\n");
    const a = await ask("review", r.dir);
    expect(logOf(r, "src/foo.ts").filter((c) => logOf(r, "src/foo.test.ts").includes(c))).toEqual([]);
    const row = a.missing.find((m: any) => m.path === "src/foo.test.ts");
    expect(row.with).toEqual(["src/foo.ts"]);
    habitRow(r, row, "src/foo.test.ts", "the test of src/foo.ts");
    for (const m of a.missing) expect(m.confidence).toBeGreaterThan(0);
    r.cleanup();
  });

  test("a file that changed with both changed files outranks one that changed more often with one of them; why counts as git log does", async () => {
    const r = copy();
    r.write("pair/alpha.txt", "edit\n").write("pair/beta.txt", "edit\n");
    const a = await ask("review", r.dir);
    const paths = a.missing.map((m: any) => m.path);
    expect(paths.indexOf("pair/xeno.txt")).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf("pair/xeno.txt")).toBeLessThan(paths.indexOf("pair/yolk.txt"));
    const window = new Set(logOf(r, "pair/alpha.txt", "pair/beta.txt"));
    const shared = logOf(r, "pair/xeno.txt").filter((c) => window.has(c));
    const xeno = a.missing.find((m: any) => m.path === "pair/xeno.txt");
    expect(xeno.with).toEqual(["pair/alpha.txt", "pair/beta.txt"]);
    expect(xeno.why).toStartWith(`changed with both your files in ${shared.length} of their last ${window.size} commits`);
    // Confidence: the larger share its why says (its commits with your files, or the place it shares with them).
    const place = /(\d+) of the (\d+) files of/.exec(xeno.why);
    expect(xeno.confidence).toBe(Math.round(Math.max(shared.length / window.size, place ? Number(place[1]) / Number(place[2]) : 0) * 100) / 100);
    r.cleanup();
  });

  test("what changed with a file lately outranks what changed with it more often long ago", async () => {
    const r = copy();
    r.write("rec/main.txt", "edit\n");
    const a = await ask("review", r.dir);
    const paths = a.missing.map((m: any) => m.path);
    expect(logOf(r, "rec/old.txt").length).toBeGreaterThan(logOf(r, "rec/new.txt").length);
    expect(paths[0]).toBe("rec/new.txt");
    expect(paths.indexOf("rec/old.txt")).toBeGreaterThan(0);
    expect(a.missing[0].why).toBe(`changed with rec/main.txt in 2 of its last ${logOf(r, "rec/main.txt").length} commits`);
    r.cleanup();
  });

  test("a place the change mostly fills: the one plugin of five it leaves out", async () => {
    const r = copy();
    for (const p of ["ant", "bee", "cat", "dog"]) r.write(`plug/${p}/index.ts`, "export const on = true;\n");
    const a = await ask("review", r.dir);
    expect(a.missing[0]).toEqual({ path: "plug/eel/index.ts", confidence: 0.8, with: [], why: "4 of the 5 files of plug/*/index.ts are in your change" });
    r.cleanup();
  });

  test("a file whose name the diff mentions", async () => {
    const r = copy();
    r.write("rec/main.txt", "the zebra crossing\n");
    const a = await ask("review", r.dir);
    habitRow(r, a.missing.find((m: any) => m.path === "docs/zebra.md"), "docs/zebra.md", "your diff mentions zebra");
    r.cleanup();
  });

  test("a changed file's partner, in every one of its commits, outranks a file that changed once with each changed file", async () => {
    const r = copy();
    for (const m of ["m1", "m2", "m3"]) r.write(`part/${m}.ts`, "edit\n");
    const a = await ask("review", r.dir);
    const paths = a.missing.map((m: any) => m.path);
    const m1 = logOf(r, "part/m1.ts");
    expect(m1.every((c) => logOf(r, "part/m1.snap").includes(c))).toBe(true);
    expect(paths[0]).toBe("part/m1.snap");
    expect(paths).toContain("part/busy.ts");
    expect(a.missing[0].why).toBe(`changed with part/m1.ts in ${m1.length} of its last ${m1.length} commits`);
    r.cleanup();
  });

  test("what the change's own pairs show: lib/c.js changed without the out/c.js its other lib files came with", async () => {
    const r = copy();
    for (const f of ["lib/a.js", "out/a.js", "lib/b.js", "out/b.js", "lib/c.js"]) r.write(f, "edit\n");
    const a = await ask("review", r.dir);
    expect(logOf(r, "lib/c.js").filter((c) => logOf(r, "out/c.js").includes(c))).toEqual([]);
    expect(a.missing[0]).toEqual({ path: "out/c.js", confidence: 0.67, with: ["lib/c.js"], why: "your change pairs lib/∗ → out/∗ for 2 of 3 files, not for lib/c.js" });
    r.cleanup();
  });

  test("a file the change's added lines start to import, named by the changed file as git diff shows it", async () => {
    const r = copy();
    r.write("plug/ant/index.ts", 'import { value } from "../../src/foo.js";\nexport const on = value;\n');
    const diff = r.git("diff", "-U0", "--", "plug/ant/index.ts");
    expect(diff).toContain('+import { value } from "../../src/foo.js";');
    const a = await ask("review", r.dir);
    const row = a.missing.find((m: any) => m.path === "src/foo.ts");
    expect(row.with).toEqual(["plug/ant/index.ts"]);
    // The import line names foo too: the words say so first, weighing more.
    habitRow(r, row, "src/foo.ts", "your diff mentions foo; plug/ant/index.ts now imports it");
    r.cleanup();
  });

  test("a file that still has a line the change removes from two others, as git grep finds it", async () => {
    const r = copy();
    // Characters a pattern would read as its own (a backslash-E ends a Perl literal) are searched for as written.
    const old = "See https://example.com/old-docs for the details (a|b) \\E.*";
    r.write("web/a.html", `<p>a</p>\n${old}\n`).commit("Add a");
    r.write("api/b.ts", `// b\n${old}\n`).commit("Add b");
    r.write("cli/c.py", `# c\n${old}\n`).commit("Add c");
    r.write("web/a.html", "<p>a</p>\nSee https://example.com/docs for the details\n").write("api/b.ts", "// b\nSee https://example.com/docs for the details\n");
    expect(r.git("grep", "-l", "-F", old, "HEAD", "--").split("\n").filter(Boolean)).toEqual(["HEAD:api/b.ts", "HEAD:cli/c.py", "HEAD:web/a.html"]);
    const a = await ask("review", r.dir);
    const row = a.missing.find((m: any) => m.path === "cli/c.py");
    expect(row).toEqual({ path: "cli/c.py", confidence: 0.67, with: ["api/b.ts"], why: `still has "${old.slice(0, 39)}…", which your change removes from 2 files` });
    r.cleanup();
  });

  test("imports: only added lines' relative specifiers, resolved as TypeScript and Node do against the old side's files", () => {
    const patch = ["--- a/src/x.ts", "+++ b/src/x.ts", "@@ -1 +1,5 @@", "-import { a } from './gone'", "+import { b } from './types.js'", "+export * from \"../lib\";", "+const c = require('./c')", "+import('react'); await import(\"./lazy\")"].join("\n");
    expect(diffImports(patchLines(patch))).toEqual(["./types.js", "../lib", "./c", "./lazy"]);
    const tree = new Set(["src/types.ts", "lib/index.js", "src/c.cjs", "src/lazy.tsx"]);
    expect(["./types.js", "../lib", "./c", "./lazy", "./gone", "../../../up"].map((s) => resolveImport("src/x.ts", s, tree))).toEqual(["src/types.ts", "lib/index.js", "src/c.cjs", "src/lazy.tsx", undefined, undefined]);
  });

  test("names and places: a test beside, under __tests__ or under test/, the types beside, and the source a test tests", () => {
    const tree = new Set(["src/foo.ts", "src/foo.test.ts", "src/__tests__/foo.ts", "test/foo.js", "src/foo.d.ts", "src/bar.ts", "lib/index.js", "test/index.js"]);
    expect(related("src/foo.ts", tree).sort()).toEqual([["src/__tests__/foo.ts", "test"], ["src/foo.d.ts", "types"], ["src/foo.test.ts", "test"], ["test/foo.js", "test"]]);
    expect(related("src/foo.test.ts", tree)).toContainEqual(["src/foo.ts", "tested"]);
    // index is everywhere: a test of that name elsewhere says nothing.
    expect(related("lib/index.js", tree)).toEqual([]);
  });
});

describe("review's missing on changes with little to go on", () => {
  test("a change that only deletes: what changed with the deleted file, never the file itself", async () => {
    const r = copy();
    r.git("rm", "-q", "pair/alpha.txt");
    const a = await ask("review", r.dir);
    const paths = a.missing.map((m: any) => m.path);
    expect(paths).not.toContain("pair/alpha.txt");
    expect(paths).toContain("pair/xeno.txt");
    r.cleanup();
  });

  test("a rename only: neither name is missing, and with names the file by its new name", async () => {
    const r = copy();
    r.git("mv", "pair/alpha.txt", "pair/alpha-renamed.txt");
    const a = await ask("review", r.dir, { staged: true });
    expect(a.files.map((f: any) => [f.path, f.status])).toEqual([["pair/alpha-renamed.txt", "R"]]);
    const paths = a.missing.map((m: any) => m.path);
    expect(paths).not.toContain("pair/alpha.txt");
    expect(paths).not.toContain("pair/alpha-renamed.txt");
    expect(a.missing.find((m: any) => m.path === "pair/yolk.txt").with).toEqual(["pair/alpha-renamed.txt"]);
    r.cleanup();
  });

  test("binary files only: an answer, what changed with them", async () => {
    const r = copy();
    r.write("logo.png", new Uint8Array([0x89, 0x50, 0, 9, 9, 0, 3]));
    const a = await ask("review", r.dir);
    expect(a.files).toEqual([{ path: "logo.png", binary: true }]);
    expect(a.missing.map((m: any) => m.path)).toContain("pair/logo-notes.txt");
    r.cleanup();
  });

  test("a brand-new repository of two commits answers, quickly", async () => {
    const r = new TestRepo();
    r.write("a.ts", "1\n").write("b.ts", "1\n").commit("One");
    r.write("a.ts", "2\n").write("b.ts", "2\n").commit("Two");
    r.write("a.ts", "3\n");
    const started = performance.now();
    const a = await ask("review", r.dir);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(a.missing).toEqual([{ path: "b.ts", confidence: 1, with: ["a.ts"], why: "changed with a.ts in 2 of its last 2 commits" }]);
    r.cleanup();
  });
});
