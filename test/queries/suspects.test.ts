/** suspects on built histories with planted bugs: each form checked against git blame -w and git log -S, the MCP copy, bad input, and --bisect in throwaway checkouts. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, CAROL, TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { answer } from "../../src/queries/answer.ts";
import { findQuery } from "../../src/queries/index.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";

const calc = (op = "+", guard = true, extra: string[] = []) =>
  lines("function add(a, b) {", ...(guard ? ["  if (a == null || b == null) return 0;"] : []), `  return a ${op} b;`, "}", ...extra, "module.exports = { add };");
const filler = (i: number) => lines(...Array.from({ length: 8 }, (_, k) => `const x${k} = ${i + k};`));

let r: TestRepo;
let tmp = "";
const sha: Record<string, string> = {};
const short = (s: string) => s.slice(0, 12);
/** git blame -w of lines at a revision: the commit of each line. */
const blameOf = (rev: string, path: string, a: number, b: number) =>
  r.git("blame", "-w", "--porcelain", "-L", `${a},${b}`, rev, "--", path).split("\n").filter((l) => /^[0-9a-f]{40} /.test(l)).map((l) => l.slice(0, 40));

beforeAll(() => {
  isolateHome();
  r = new TestRepo();
  r.write("calc.js", calc()).write("util.js", lines("export const one = 1;", "export const two = 2;", "export const three = 3;"));
  for (let i = 0; i < 35; i++) r.write(`lib/f${i}.js`, filler(i));
  sha.start = r.commit("Start", ALICE);
  r.git("tag", "v1.0");
  r.write("calc.js", calc("+", false));
  sha.unguard = r.commit("Simplify add", BOB);
  r.write("calc.js", calc("-", false));
  sha.bug = r.commit("Tune add", CAROL);
  // A mass change over every file after the bug: it moves the lines, it does not write them.
  r.write("calc.js", calc("-", false).replace(/;\n/g, "; // style\n"));
  for (let i = 0; i < 35; i++) r.write(`lib/f${i}.js`, filler(i).replace(/;\n/g, "; // style\n"));
  sha.mass = r.commit("Apply the code style", ALICE);
  r.write("calc.js", calc("+", false).replace(/;\n/g, "; // style\n"));
  sha.fixOp = r.commit("Fix add: it subtracted", BOB);
  r.write("calc.js", calc("+", true).replace(/return a \+ b;\n/, "return a + b; // style\n"));
  sha.fixGuard = r.commit("Fix add on null input", BOB);
  tmp = tempDir("lore-bisect-tmp-");
}, 60_000);

afterAll(() => {
  r.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe("suspects", () => {
  test("a fix's rewritten line points through the mass change to the commit that wrote it, and git blame -w agrees once that change is ignored", async () => {
    const a = await ask("suspects", r.dir, { rev: sha.fixOp });
    expect(a.rev).toBe(r.git("rev-parse", `${sha.fixOp}^`).trim());
    expect(a.fix).toBe(sha.fixOp);
    expect(a.suspects[0].sha).toBe(short(sha.bug));
    // git blame -w alone names the mass change; seeing through it gives the bug.
    const line = 2;
    expect(blameOf(`${sha.fixOp}^`, "calc.js", line, line)).toEqual([sha.mass]);
    expect(r.git("blame", "-w", "--porcelain", "--ignore-rev", sha.mass, "-L", `${line},${line}`, `${sha.fixOp}^`, "--", "calc.js").slice(0, 40)).toBe(sha.bug);
    expect(a.suspects[0]).toMatchObject({ author: CAROL.name, subject: "Tune add", lines: { "calc.js": [[2, 2]] } });
    expect(a.suspects[0].why).toContain("1 line");
  });

  test("a fix that only adds back a removed guard points at the commit that removed it (git log -S)", async () => {
    const a = await ask("suspects", r.dir, { rev: sha.fixGuard });
    const removed = r.git("log", "-n", "1", "--format=%H", "-Sif (a == null || b == null) return 0;", `${sha.fixGuard}^`, "--", "calc.js").trim();
    expect(removed).toBe(sha.unguard);
    expect(a.suspects[0].sha).toBe(short(sha.unguard));
    expect(a.suspects[0].why).toContain("which the fix adds back");
    expect(a.suspects[0].lines).toEqual({});
  });

  test("PATH -L A,B: the commits of those lines, as git blame -w gives them", async () => {
    const a = await ask("suspects", r.dir, { path: "util.js", startLine: 1, endLine: 3 });
    expect(a.suspects.map((s: any) => s.sha)).toEqual([...new Set(blameOf("HEAD", "util.js", 1, 3))].map(short));
    expect(a.suspects[0].lines).toEqual({ "util.js": [[1, 3]] });
  });

  test("a stack trace: frames in the repository are blamed, frames outside it (node_modules, the runtime) left out", async () => {
    const trace = [
      "TypeError: boom",
      `    at add (${join(r.dir, "calc.js")}:2:10)`,
      "    at Object.<anonymous> (/usr/lib/node/internal/modules/cjs/loader.js:1:1)",
      "    at run (/work/other/node_modules/lib/calc.js:9:1)",
      "    at main (util.js:3:1)",
    ].join("\n");
    const a = await ask("suspects", r.dir, { trace });
    const want = new Set([...blameOf("HEAD", "calc.js", 2, 2), ...blameOf("HEAD", "util.js", 3, 3)].map(short));
    expect(new Set(a.suspects.map((s: any) => s.sha))).toEqual(want);
    expect(a.suspects[0].lines["calc.js"]).toEqual([[2, 2]]);
  });

  test("the uncommitted change: the lines it rewrites at HEAD, as review reads them", async () => {
    const dir = join(tempDir(), "copy");
    r.git("clone", "-q", r.dir, dir);
    const c = new TestRepo(dir, false);
    c.write("util.js", lines("export const one = 1;", "export const two = 22;", "export const three = 3;"));
    const a = await ask("suspects", dir);
    expect(a.fix).toBeUndefined();
    expect(a.suspects[0].sha).toBe(short(blameOf.call(null, "HEAD", "util.js", 2, 2)[0]!));
    expect(a.suspects[0].lines).toEqual({ "util.js": [[2, 2]] });
    rmSync(dir, { recursive: true, force: true });
  });

  test("bad input gets one clear sentence", async () => {
    await expect(ask("suspects", r.dir, { path: "calc.js" })).rejects.toThrow("-L");
    await expect(ask("suspects", r.dir, { rev: sha.fixOp, trace: "x" })).rejects.toThrow("not several");
    await expect(ask("suspects", r.dir, { rev: sha.start })).rejects.toThrow("root commit");
    await expect(ask("suspects", r.dir, { rev: "nope" })).rejects.toThrow();
    const c = cli(r.dir, ["suspects", "--trace", "/no/such/file"]);
    expect(c.code).not.toBe(0);
    expect(c.stderr).toContain("--trace");
  });

  test("over MCP: five suspects a page as rows, valid against the output schema, continue for the rest", async () => {
    const def = findQuery("suspects")!;
    const deps = { scope: new RepoScope(r.dir), call: (n: string, i: Record<string, unknown>, o: { cwd: string }) => answer(n, i, { cwd: o.cwd }), noDaemon: true, maxBytes: 16_000, log: () => {} };
    const t = await callTool(def, { trace: `at a (calc.js:1:1)\nat b (calc.js:2:1)\nat c (util.js:1:1)\nat d (lib/f1.js:1:1)\nat e (lib/f2.js:1:1)\nat f (lib/f3.js:1:1)\nat g (lib/f4.js:1:1)` }, deps);
    expect(outputSchema(def).safeParse(t.structuredContent).success).toBe(true);
    const page = expandTuples(t.structuredContent) as any;
    expect(page.suspects.length).toBeLessThanOrEqual(5);
    expect(t.content[0]!.text).toContain(page.suspects[0].sha);
    expect(await callTool(def, { bisect: "true" }, deps)).toMatchObject({ isError: true });
  });

  test("--bisect confirms the planted bug in throwaway checkouts outside the repository, and leaves no checkout, ref or worktree behind", () => {
    const refs = r.git("for-each-ref");
    // The user's own command: passes while add adds. Run by a shell because the user wrote one.
    const c = cli(r.dir, ["suspects", sha.fixOp, "--json", "--bisect", "grep -q 'a + b' calc.js"], { TMPDIR: tmp });
    expect(c.code).toBe(0);
    expect(c.json.bisect[0]).toEqual({ sha: short(sha.bug), parent: "good", suspect: "bad", confirmed: true });
    expect(c.stderr).toContain("bisect 1/");
    expect(readdirSync(tmp)).toEqual([]);
    expect(r.git("for-each-ref")).toBe(refs);
    expect(r.git("worktree", "list").trim().split("\n").length).toBe(1);
    expect(existsSync(join(r.dir, r.git("rev-parse", "--git-path", "BISECT_LOG").trim()))).toBe(false);
  });

  test("--bisect: Ctrl-C stops the command and removes every checkout", async () => {
    const bisect = loreCommand(["suspects", sha.fixOp, "--bisect", "sleep 30"]);
    const child = spawn(bisect.command, bisect.args, { cwd: r.dir, env: { ...process.env, LORE_NO_DAEMON: "1", TMPDIR: tmp }, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    while (!err.includes("bisect 1/")) await new Promise((ok) => setTimeout(ok, 100));
    await new Promise((ok) => setTimeout(ok, 800));
    expect(readdirSync(tmp).length).toBe(1);
    child.kill("SIGINT");
    const code = await new Promise((ok) => child.on("close", ok));
    expect(code).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
