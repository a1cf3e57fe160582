import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitBlame, hunksToLines } from "../helpers/git-truth.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { tempDir, type TestRepo } from "../helpers/git-repo.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

describe("the command line", () => {
  test("--json prints exactly the answer the question gives, and nothing else", async () => {
    const r = cli(repo.dir, ["blame", "src/main.js", "-L", "2,5", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.json).toEqual(await ask("blame", repo.dir, { path: "src/main.js", startLine: 2, endLine: 5 }));
    expect(hunksToLines(r.json.hunks).map((l) => l.sha)).toEqual(gitBlame(repo.dir, "HEAD", "src/main.js", ["-L", "2,5"]).map((o) => o.sha));
  });

  test("a path is relative to the folder the person stands in", () => {
    const r = cli(join(repo.dir, "src"), ["history", "main.js", "--json"]);
    expect(r.code).toBe(0);
    expect(r.json.path).toBe("src/main.js");
  });

  test("every question answers on the command line, for people and for pipes", () => {
    const runs: string[][] = [
      ["blame", "README.md"],
      ["history", "src/main.js", "-n", "3"],
      ["intent", "README.md", "-L", "1,2"],
      ["cochange", "src/main.js", "--commits", "all"],
      ["hotspots", "src", "-n", "5"],
      ["contributors", "src"],
      ["status"],
    ];
    for (const args of runs) {
      const human = cli(repo.dir, args);
      expect({ args, code: human.code, stderr: human.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(human.stdout).not.toContain("\x1b[");
      expect(human.stdout.trim().length).toBeGreaterThan(0);
      const json = cli(repo.dir, [...args, "--json"]);
      expect(json.code).toBe(0);
      expect(json.json.repo).toBe(repo.dir);
    }
  });

  test("a name that starts with a dash needs --, and never reaches git as an option", () => {
    const refused = cli(repo.dir, ["blame", "-rf.txt"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("[USAGE]");
    const ok = cli(repo.dir, ["blame", "--json", "--", "-rf.txt"]);
    expect(ok.code).toBe(0);
    expect(ok.json.path).toBe("-rf.txt");
    const rev = cli(repo.dir, ["blame", "README.md", "--until=--output=/tmp/x", "--json"]);
    expect(rev.code).toBe(1);
    expect(rev.json.error.code).toBe("BAD_REVISION");
  });

  test("usage errors exit 2, other errors 1, with a sentence and a code and no stack trace", () => {
    const cases: [string[], number, string, string][] = [
      [["blame", "README.md", "--bogus"], 2, "USAGE", repo.dir],
      [["frobnicate"], 2, "UNKNOWN_QUESTION", repo.dir],
      [["blame", "README.md", "-L", "9,1"], 2, "BAD_RANGE", repo.dir],
      [["blame", "README.md", "-L", "abc"], 2, "BAD_RANGE", repo.dir],
      [["blame", "README.md", "-L", "0,5"], 2, "BAD_RANGE", repo.dir],
      [["intent", "README.md", "-L", "0"], 2, "BAD_RANGE", repo.dir],
      [["history", "README.md", "-n", "zero"], 2, "BAD_ARGUMENT", repo.dir],
      [["blame", "nope.txt"], 1, "PATH_NOT_FOUND", repo.dir],
      [["blame", "../outside.txt"], 1, "PATH_OUTSIDE_REPO", repo.dir],
      [["blame", "logo.png"], 1, "BINARY_FILE", repo.dir],
      [["status"], 1, "NOT_A_REPO", tempDir()],
    ];
    for (const [args, code, errCode, cwd] of cases) {
      const human = cli(cwd, args);
      expect({ args, code: human.code }).toEqual({ args, code });
      expect(human.stdout).toBe("");
      expect(human.stderr).toContain(`[${errCode}]`);
      expect(human.stderr).not.toMatch(/\n\s+at /);
      const json = cli(cwd, [...args, "--json"]);
      expect(json.code).toBe(code);
      expect(json.json).toEqual({ error: { code: errCode, message: expect.any(String) } });
    }
  });

  test("every form of -L git blame takes gives git blame -L's lines", () => {
    const lineCount = repo.git("show", "HEAD:src/main.js").split("\n").length - 1;
    for (const form of ["3", "3,", ",4", "2,+3", "5,-2", "2,5", `1,${lineCount}`]) {
      const r = cli(repo.dir, ["blame", "src/main.js", "-L", form, "--json"]);
      // git's own final line numbers and commits, from the porcelain headers.
      const truth = [...repo.git("blame", "--line-porcelain", "-L", form, "HEAD", "--", "src/main.js").matchAll(/^([0-9a-f]{12})[0-9a-f]{28} \d+ (\d+)/gm)].map((m) => `${m[2]} ${m[1]}`);
      expect({ form, lines: hunksToLines(r.json.hunks).map((l) => `${l.line} ${l.sha}`) }).toEqual({ form, lines: truth });
    }
    const intent = cli(repo.dir, ["intent", "src/main.js", "-L", "3", "--json"]).json;
    expect(intent.range).toEqual([3, lineCount]);
    for (const bad of ["", ",", "+3", "3,+", "a,b"]) expect({ bad, code: cli(repo.dir, ["blame", "src/main.js", "-L", bad, "--json"]).json.error.code }).toEqual({ bad, code: "BAD_RANGE" });
  });

  test("flags every question takes may come before it, as with git -C", async () => {
    const outside = tempDir();
    const r = cli(outside, ["--repo", repo.dir, "--json", "blame", "src/main.js", "-L", "2,5"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.json).toEqual(await ask("blame", repo.dir, { path: "src/main.js", startLine: 2, endLine: 5 }));
    expect(cli(outside, [`--repo=${repo.dir}`, "--json", "status"]).json.head).toBe(repo.head());
    const lone = cli(outside, ["--json"]);
    expect({ code: lone.code, error: lone.json.error.code }).toEqual({ code: 2, error: "UNKNOWN_QUESTION" });
    expect(lone.stderr).toContain("write the question first");
  });

  test("help and version", () => {
    const help = cli(repo.dir, ["--help"]);
    expect(help.code).toBe(0);
    for (const q of ["blame", "history", "intent", "cochange", "hotspots", "contributors", "status"]) expect(help.stdout).toContain(q);
    const qhelp = cli(repo.dir, ["cochange", "--help"]);
    expect(qhelp.stdout).toContain("--max-files");
    expect(cli(repo.dir, ["--version"]).stdout).toMatch(/^lore \d+\.\d+\.\d+/);
  });
});
