import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, TestRepo, lines } from "../helpers/git-repo.ts";
import { gitCommitFiles } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { indentComplexity, kneeOf } from "../../src/queries/run/hotspot-files.ts";

let repo: TestRepo;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write(".gitattributes", "gen/** linguist-generated\nthird/** linguist-vendored=true\n").commit("Attributes");
  for (let i = 0; i < 6; i++) {
    repo.write("src/core.js", lines("function f() {", "\tif (x) {", "\t\treturn " + i + ";", "\t}", "", "    return 0;", "}"));
    repo.write("package-lock.json", lines("{", `  "v": ${i}`, "}"));
    repo.write("gen/schema.ts", lines(`export const v = ${i};`));
    repo.write("third/lib.js", lines(`var v = ${i};`));
    if (i < 2) repo.write("src/rare.js", lines("x", String(i)));
    repo.commit(`Round ${i}`, i % 2 ? ALICE : BOB);
  }
  repo.write("src/once.js", lines("y")).commit("Once");
});
afterAll(() => repo.cleanup());

test("lockfiles, linguist-generated and linguist-vendored files are left out unless all", async () => {
  const r = await ask("hotspots", repo.dir, { limit: 100 });
  expect(r.results.map((x: any) => x.path).sort()).toEqual([".gitattributes", "src/core.js", "src/once.js", "src/rare.js"]);
  const all = await ask("hotspots", repo.dir, { limit: 100, all: true });
  const counts = new Map<string, number>();
  for (const c of gitCommitFiles(repo.dir, "HEAD", 500)) for (const f of c.files) counts.set(f, (counts.get(f) ?? 0) + 1);
  expect(new Map(all.results.map((x: any) => [x.path, x.commits]))).toEqual(counts);
});

test("complexity is leading tabs + spaces / 4 over the non-blank lines of the file git has", async () => {
  const r = await ask("hotspots", repo.dir, {});
  const core = r.results.find((x: any) => x.path === "src/core.js");
  const text = repo.git("show", "HEAD:src/core.js");
  let expected = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const lead = /^[ \t]*/.exec(line)![0];
    expected += [...lead].filter((c) => c === "\t").length + [...lead].filter((c) => c === " ").length / 4;
  }
  expect(core.complexity).toBe(Math.round(expected));
  expect(core.complexity).toBe(5);
  expect(indentComplexity(new TextEncoder().encode("a\n\tb\n        c\n\n"))).toBe(3);
});

test("hotspot marks the files above the knee of the change-frequency curve", async () => {
  const r = await ask("hotspots", repo.dir, {});
  expect(Object.fromEntries(r.results.map((x: any) => [x.path, x.hotspot]))).toEqual({ "src/core.js": true, "src/rare.js": false, "src/once.js": false, ".gitattributes": false });
  expect(kneeOf([50, 40, 5, 4, 3, 2, 1, 1])).toBe(5);
  expect(kneeOf([3, 3, 3])).toBe(Infinity);
});
