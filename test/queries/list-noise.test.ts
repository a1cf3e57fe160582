/** What lists of files leave out as noise: keywords and hunk headers are not words of a change, unbacked guesses are not rows, lockfiles and generated files are out of every list of files (what changes with what, who owns what) unless --all; cochange says what it ranks by. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { diffWords } from "../../src/git/diff-words.ts";
import { patchLines } from "../../src/git/patch-lines.ts";
import { TestRepo, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";

let base: TestRepo;

function copy(): TestRepo {
  const dir = join(tempDir(), "repo");
  cpSync(base.dir, dir, { recursive: true });
  return new TestRepo(dir, false);
}

const SERVER = (body: string) => ["import { config } from './config';", "", "export async function createServer(options) {", "  const a = 1;", "  const b = 2;", "  const c = 3;", "  const d = 4;", `  ${body}`, "  return a + b + c + d;", "}", ""].join("\n");

beforeAll(() => {
  isolateHome();
  base = new TestRepo();
  base.write("src/server.ts", SERVER("listen(0);")).write("src/helper.ts", "1\n").commit("Add the server");
  base.write("src/server.ts", SERVER("listen(1);")).write("src/helper.ts", "2\n").commit("Server and helper");
  // config.ts changes with the lockfile and a generated file every time, with util.ts less often.
  base.write(".gitattributes", "gen/** linguist-generated\n").commit("Mark gen/ as generated");
  for (let i = 0; i < 6; i++) {
    base.write("src/config.ts", `${i}\n`).write("package-lock.json", `{"v":${i}}\n`).write("gen/schema.ts", `${i}\n`).write("dist/bundle.js", `${i}\n`);
    if (i % 2 === 0) base.write("src/util.ts", `${i}\n`);
    // A big commit now and then: it shares less with config.ts than the small ones.
    if (i === 3) for (let k = 0; k < 8; k++) base.write(`wide/f${k}.ts`, `${i}\n`);
    base.commit(`Config ${i}`);
  }
}, 60_000);

afterAll(() => base.cleanup());

describe("the words of a diff", () => {
  test("are the names a change adds or removes: never keywords, never the hunk header's function context, never a word it keeps", () => {
    const patch = [
      "diff --git a/s.ts b/s.ts",
      "--- a/s.ts",
      "+++ b/s.ts",
      "@@ -7,3 +7,3 @@ export async function _createServer(",
      "-  const server = createThing(config)",
      "+  const server = createThing(config, zebraMode)",
      "+  return async function () {}",
    ].join("\n");
    expect(diffWords(patchLines(patch))).toEqual(["zebramode"]);
  });

  test("a 1-line edit inside `export async function` is not said to mention export, async or function in review's missing", async () => {
    // Its own small history: little co-change to go on, as in a young repository.
    const r = new TestRepo();
    r.write("fixtures/global/export.js", "1\n").write("fixtures/re-export.js", "1\n").write("css/async-js.css", "a{}\n").write("fixtures/function.js", "1\n").commit("Fixtures");
    r.write("src/server.ts", SERVER("listen(0);")).write("src/helper.ts", "1\n").commit("Add the server");
    r.write("src/server.ts", SERVER("listen(1);")).write("src/helper.ts", "2\n").commit("Server and helper");
    r.write("src/server.ts", SERVER("listen(2);"));
    // git's own hunk header carries the function context lore must not read as the change's words.
    expect(r.git("diff", "--", "src/server.ts")).toMatch(/^@@ .* @@ export async function createServer\(/m);
    const a = await ask("review", r.dir);
    expect(a.missing[0].path).toBe("src/helper.ts");
    // (They may still be named for what the repository's last commits did, which why says.)
    for (const m of a.missing) expect(m.why).not.toMatch(/mentions (export|async|function|createserver)/);
    r.cleanup();
  });

  test("review shows no row with confidence 0", async () => {
    const r = copy();
    r.write("src/server.ts", SERVER("listen(2);")).write("src/config.ts", "zebra\n");
    const a = await ask("review", r.dir, { all: true });
    expect(a.missing.length).toBeGreaterThan(0);
    for (const m of a.missing) expect(m.confidence).toBeGreaterThan(0);
    r.cleanup();
  });
});

describe("lockfiles and generated files", () => {
  const NOISE = ["package-lock.json", "gen/schema.ts", "dist/bundle.js"];

  test("cochange leaves them out, as hotspots does; --all brings them back", async () => {
    const co = await ask("cochange", base.dir, { paths: ["src/config.ts"], limit: 20 });
    const paths = co.results.map((x: any) => x.path);
    for (const p of NOISE) expect(paths).not.toContain(p);
    expect(paths).toContain("src/util.ts");
    const hot = (await ask("hotspots", base.dir, { limit: 50 })).results.map((x: any) => x.path);
    for (const p of NOISE) expect(hot).not.toContain(p);
    const all = (await ask("cochange", base.dir, { paths: ["src/config.ts"], limit: 20, all: true })).results.map((x: any) => x.path);
    for (const p of NOISE) expect(all).toContain(p);
    const run = cli(base.dir, ["cochange", "src/config.ts", "--all", "--json"]);
    expect(run.code).toBe(0);
    expect(run.json.results.map((x: any) => x.path)).toContain("package-lock.json");
  });

  test("review's missing leaves them out; --all brings them back", async () => {
    const r = copy();
    r.write("src/config.ts", "edit\n");
    const a = await ask("review", r.dir);
    const paths = a.missing.map((m: any) => m.path);
    for (const p of NOISE) expect(paths).not.toContain(p);
    expect(paths).toContain("src/util.ts");
    const all = (await ask("review", r.dir, { all: true })).missing.map((m: any) => m.path);
    expect(all).toContain("package-lock.json");
    r.cleanup();
  });
});

describe("lockfiles and generated files in who owns what", () => {
  const NOISE = ["package-lock.json", "gen/schema.ts", "dist/bundle.js"];

  test("owners and contributors count their lines only with --all; a lockfile asked about by name is answered", async () => {
    const rows = (await ask("owners", base.dir, { by: "file", limit: 100 })).results.map((r: any) => r.path);
    for (const p of NOISE) expect(rows).not.toContain(p);
    expect(rows).toContain("src/config.ts");
    const all = (await ask("owners", base.dir, { by: "file", limit: 100, all: true })).results.map((r: any) => r.path);
    for (const p of NOISE) expect(all).toContain(p);
    // Lines as git ls-files and wc count them: every text file's, less the noise's.
    const linesOf = (paths: string[]) => paths.reduce((n, p) => n + base.git("show", `HEAD:${p}`).split("\n").length - 1, 0);
    const tracked = base.git("ls-files").trim().split("\n");
    const c = await ask("contributors", base.dir);
    expect(c.totalLines).toBe(linesOf(tracked.filter((p) => !NOISE.includes(p))));
    expect((await ask("contributors", base.dir, { all: true })).totalLines).toBe(linesOf(tracked));
    expect((await ask("contributors", base.dir, { path: "package-lock.json" })).totalLines).toBe(1);
  });
});

describe("cochange's ranking", () => {
  test("each row says its score, the rows are in its order, and the text shows it first", async () => {
    const co = await ask("cochange", base.dir, { paths: ["src/config.ts"], limit: 20, all: true });
    const scores = co.results.map((x: any) => x.score);
    expect(scores.every((s: unknown) => typeof s === "number" && s > 0)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The counts alone are not in order: a wide commit's files share one commit but rank below a small one's.
    const text = cli(base.dir, ["cochange", "src/config.ts", "--all", "-n", "20"]).stdout.split("\n");
    const header = text.findIndex((l) => /^\s*score\s+together\s+confidence/.test(l));
    expect(header).toBeGreaterThan(0);
    const rows = text.slice(header + 1, header + 1 + co.results.length).map((l) => l.trim().split(/\s+/));
    expect(rows.map((r) => [Number(r[0]), Number(r[1]), r[4]])).toEqual(co.results.map((x: any) => [x.score, x.count, x.path]));
  });
});
