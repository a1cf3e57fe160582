/** The same source under Deno: every question through the CLI on a real repository, compared with Bun's answers. */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";

const ROOT = join(import.meta.dir, "..", "..");
const DENO = join(ROOT, "node_modules", "deno", "deno");
let dir = "";
/** Each runtime's own LORE_HOME: Deno's index built by Deno in the first test, Bun's the prepared one, both asked again by the later ones. */
const homes = { bun: "", deno: "" };

function run(runtime: "bun" | "deno", args: string[], home: string) {
  const cmd = runtime === "bun" ? [process.execPath, join(ROOT, "src", "main.ts")] : [DENO, "run", "-A", "--quiet", join(ROOT, "src", "main.ts")];
  const r = spawnSync(cmd[0]!, [...cmd.slice(1), ...args, "--json", "--no-daemon"], { cwd: dir, env: { ...process.env, LORE_HOME: home, NO_COLOR: "1" }, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : undefined };
}

const QUESTIONS: string[][] = [
  ["blame", "lib/response.js", "-L", "40,90"],
  ["history", "lib/application.js", "-n", "30"],
  ["history", "lib/router/index.js", "-n", "5", "--no-follow"],
  ["intent", "lib/response.js", "-L", "100,120"],
  ["cochange", "lib/response.js", "-n", "15"],
  ["hotspots", "-n", "15"],
  ["hotspots", "lib", "--since", "2020-01-01"],
  ["contributors", "lib/utils.js"],
  ["blame", "lib/express.js", "--until", "HEAD~200"],
  ["blame", "no/such/file.js"],
  ["search", "router", "-n", "5"],
  ["search", "--code", "etag", "-n", "3"],
  ["history", "lib/response.js", "-L", "126,140"],
  ["log", "-n", "10", "lib"],
  ["show", "HEAD~2", "lib"],
  ["show", "HEAD~5:lib/express.js", "-L", "1,20"],
  ["compare", "HEAD~10", "--patch"],
];

/** The answer with its continue token said as "a token": each home seals with its own secret, and each runtime stamps files to its own precision. */
const sealed = (json: unknown) => JSON.parse(JSON.stringify(json ?? null).replace(/"continue":"\d+"/g, '"continue":"a token"'));

describe.skipIf(!existsSync(DENO) || !hasExpress)("under Deno", () => {
  beforeAll(async () => {
    homes.bun = tempDir("lore-home-");
    homes.deno = tempDir("lore-home-");
    // Bun's answers are the reference here, not its first index: Bun starts from the index made once
    // for the files that ask express, and Deno builds its own (the status test checks that one).
    dir = await indexedClone("express", undefined, homes.bun);
  }, 300_000);

  test("every question answers exactly as under Bun", () => {
    for (const q of QUESTIONS) {
      const b = run("bun", q, homes.bun);
      const d = run("deno", q, homes.deno);
      expect({ q, code: d.code, json: sealed(d.json) }).toEqual({ q, code: b.code, json: sealed(b.json) });
      expect(d.stderr.includes("    at ")).toBe(false);
    }
  }, 240_000);

  test("status under Deno reports the index Deno built", () => {
    run("deno", ["history", "package.json", "-n", "1"], homes.deno);
    const s = run("deno", ["status"], homes.deno).json;
    expect(s.state).toBe("fresh");
    expect(s.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));
    expect(s.head).toBe(runGit(dir, ["rev-parse", "HEAD"]).trim());
  }, 120_000);

  test("lore report writes the same page under Deno as under Bun", () => {
    const pages = (["bun", "deno"] as const).map((rt) => {
      const out = join(tempDir("lore-report-"), "lib.html");
      expect(run(rt, ["report", "lib", "--out", out], homes[rt]).code).toBe(0);
      return readFileSync(out, "utf8");
    });
    expect(pages[0]).toContain('"path":"lib/response.js"');
    expect(pages[1]).toBe(pages[0]!);
  }, 120_000);
});
