/**
 * Each face says things in its own words: the command line in flags (--changed, -L, PATH),
 * MCP in its parameter names (changed: true, startLine, path); a word lore does not know gets
 * the nearest one it does; and a cut list ends with one line that says how to get more.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DEFAULT_MAX_BYTES } from "../../src/mcp/cap.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import { QUERIES } from "../../src/queries/index.ts";
import { nearest } from "../../src/nearest.ts";
import { ALICE, BOB, TestRepo, lines } from "../helpers/git-repo.ts";
import { cli, isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  for (let i = 1; i <= 6; i++) {
    repo.write("a.txt", lines(...Array.from({ length: i + 2 }, (_, k) => `line ${k}`)));
    repo.write(`f${i}.txt`, lines(`file ${i}`));
    repo.commit(`Change ${i}`, i % 2 ? ALICE : BOB);
  }
});
afterAll(() => repo.cleanup());

const deps = () => ({ scope: new RepoScope(repo.dir), call: (name: string, input: Record<string, unknown>, o: { cwd: string }) => answer(name, input, { cwd: o.cwd }), noDaemon: true, maxBytes: DEFAULT_MAX_BYTES, log: () => {} });
const mcp = async (tool: string, args: Record<string, unknown>) => (await callTool(queryForTool(`lore_${tool}`)!, args, deps())).content[0]!.text;

/** A flag as a person types it: --name or -x, at the start or after a space or bracket. */
const CLI_FLAG = /(^|[\s(])--?[a-zA-Z]/;

describe("the command line speaks in flags", () => {
  test("a missing path names PATH, not MCP's parameter", () => {
    const r = cli(repo.dir, ["blame"]);
    expect(r.stderr).toContain("[BAD_ARGUMENT]");
    expect(r.stderr).toContain("PATH");
    expect(r.stderr).not.toMatch(/needs path\b/);
  });

  test("cochange without files names --changed, never changed: true", () => {
    const none = cli(repo.dir, ["cochange"]);
    expect(none.stderr).toContain("--changed");
    expect(none.stderr).not.toContain("changed: true");
    const both = cli(repo.dir, ["cochange", "a.txt", "--changed"]);
    expect(both.stderr).toContain("--changed");
    expect(both.stderr).not.toContain("changed: true");
  });

  test("a bad number or word names the flag it came from", () => {
    const cases: [string[], string][] = [
      [["log", "-n", "0"], "--limit"],
      [["log", "--skip", "x"], "--skip"],
      [["hotspots", "--commits", "lots"], "--commits"],
      [["contributors", "--by", "size"], "--by"],
      [["owners", "--by", "size"], "--by"],
      [["search", "word", "--regex"], "--code"],
      [["search", "--code", "x", "--newest"], "--newest"],
      [["show", "HEAD", "--diff-lines", "0"], "--diff-lines"],
      [["log", "--author", ""], "--author"],
      [["intent", "a.txt"], "-L"],
    ];
    for (const [args, flag] of cases) {
      const r = cli(repo.dir, args);
      expect({ args, said: r.stderr.includes(flag), code: r.code }).toEqual({ args, said: true, code: r.code === 0 ? -1 : r.code });
    }
  });
});

describe("MCP speaks in its parameter names", () => {
  test("the same mistakes over MCP name the parameters and no flag", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["blame", {}, "path"],
      ["cochange", {}, "changed: true"],
      ["cochange", { paths: ["a.txt"], changed: true }, "changed: true"],
      ["log", { limit: 0 }, "limit"],
      ["search", { query: "word", regex: true }, "code: true"],
      ["show", { rev: "HEAD", diffLines: 0 }, "diffLines"],
      ["log", { author: "" }, "author"],
      ["intent", { path: "a.txt" }, "startLine"],
      ["blame", { path: "a.txt", startLine: 0, endLine: 2 }, "startLine"],
    ];
    for (const [tool, args, word] of cases) {
      const text = await mcp(tool, args);
      expect({ tool, args, text: text.startsWith("BAD_") && text.includes(word) && !CLI_FLAG.test(text.replace(/^[A-Z_]+: /, "")) }).toEqual({ tool, args, text: true });
    }
  });
});

describe("an answer's note speaks each face's words", () => {
  test("review --staged with nothing staged says --staged on the command line and staged over MCP, in both copies", async () => {
    expect(cli(repo.dir, ["review", "--staged"]).stdout).toContain("--staged");
    const r = await callTool(queryForTool("lore_review")!, { staged: true }, deps());
    const note = (r.structuredContent as { note?: string }).note ?? "";
    expect(note).toContain("staged");
    expect(CLI_FLAG.test(note)).toBe(false);
    expect(CLI_FLAG.test(r.content[0]!.text)).toBe(false);
  });
});

describe("a word lore does not know gets the nearest one it does", () => {
  test("a mistyped question, flag or command names the one meant, as git does", () => {
    expect(cli(repo.dir, ["blam", "a.txt"]).stderr).toContain("lore blame");
    expect(cli(repo.dir, ["hotspot"]).stderr).toContain("lore hotspots");
    expect(cli(repo.dir, ["doctr"]).stderr).toContain("lore doctor");
    expect(cli(repo.dir, ["log", "--lmit", "3"]).stderr).toContain("--limit");
    expect(cli(repo.dir, ["log", "--no-merge"]).stderr).toContain("--no-merges");
    expect(cli(repo.dir, ["daemon", "stat"]).stderr).toContain("status");
    expect(cli(repo.dir, ["git", "shwo", "HEAD"]).stderr).toContain("Did you mean git show?");
    expect(cli(repo.dir, ["completion", "bsh"]).stderr).toContain("lore completion bash");
    // Nothing near: no guess.
    expect(cli(repo.dir, ["frobnicate"]).stderr).not.toMatch(/did you mean/i);
  });

  test("over MCP a mistyped parameter names the one meant", async () => {
    expect(await mcp("log", { lmit: 3 })).toContain('"limit"');
    expect(await mcp("blame", { paht: "a.txt" })).toContain('"path"');
  });

  test("the nearest word is the one fewest edits away, and none past the threshold", () => {
    expect(nearest("blam", QUERIES.map((q) => q.name))).toEqual(["blame"]);
    expect(nearest("lmit", ["limit", "all", "since"])).toEqual(["limit"]);
    expect(nearest("histroy", ["history", "hotspots"])).toEqual(["history"]);
    expect(nearest("zzz", ["blame", "log"])).toEqual([]);
  });
});

describe("a cut list ends with one line that says both how to see more and how to get the rest", () => {
  test("on the command line", () => {
    for (const args of [["log", "-n", "2"], ["history", "a.txt", "-n", "2"], ["hotspots", "-n", "2", "--commits", "all"], ["contributors", "-n", "1"], ["search", "Change", "-n", "2"], ["owners", "-n", "1", "--by", "file"]]) {
      const out = cli(repo.dir, args).stdout.trimEnd().split("\n");
      const hints = out.filter((l) => l.startsWith("…") || /more|the rest/.test(l));
      expect({ args, hints: hints.length }).toEqual({ args, hints: 1 });
      expect({ args, last: out.at(-1) }).toEqual({ args, last: expect.stringMatching(/-n \d+.*--continue \S+/) });
    }
  });

  test("over MCP, in the tool's words: the text copy's one continue line, as its JSON copy's continue field", async () => {
    for (const [tool, args] of [["log", { limit: 2 }], ["history", { path: "a.txt", limit: 2 }], ["search", { query: "Change", limit: 2 }]] as const) {
      const out = (await mcp(tool, args)).split("\n");
      const hints = out.filter((l) => l.startsWith("…") || /more|the rest|continue/.test(l));
      expect({ tool, hints: hints.length, flags: hints.some((l) => CLI_FLAG.test(l)) }).toEqual({ tool, hints: 1, flags: false });
      expect(out.at(-1)).toMatch(/^continue \S+$/);
    }
  });
});
