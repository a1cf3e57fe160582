/** Counts of one read as one: "1 commit", "1 file", "line 3", on the command line and in MCP's text, for every question. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DEFAULT_MAX_BYTES } from "../../src/mcp/cap.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import { plural } from "../../src/plural.ts";
import { render } from "../../src/cli/render/index.ts";
import { plain } from "../../src/cli/style.ts";
import { ALICE, BOB, TestRepo } from "../helpers/git-repo.ts";
import { cli, isolateHome } from "../helpers/lore.ts";
import { progressLine } from "../../src/cli/progress.ts";
import { progressMessage } from "../../src/queries/partial.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  // One commit of two one-line files, then one of eleven files: log lists ten and says one more.
  repo.write("a.txt", "one\n").write("b.txt", "one\n").commit("One", ALICE);
  for (let i = 0; i < 11; i++) repo.write(`n/${i}.txt`, `${i}\n`);
  repo.commit("Eleven", BOB);
  // One uncommitted change: a.txt's only line rewritten, one new file.
  repo.write("a.txt", "uno\n").write("c.txt", "new\n");
});
afterAll(() => repo.cleanup());

/** A count of one with a plural noun ("1 commits"), or a range of one line said as lines ("lines 4", "lines 4-4"). */
const WRONG = /(?<![\d.,+-])\b1 (?!(?:is|was|has|does|this|its|as|plus)\b)([a-z]+s)\b|\blines (\d+)(?![\d,-]|-\d)|\blines (\d+)-\3\b/;

/** Every question whose answer can hold a count of one, on this repository. */
const RUNS: [string, Record<string, unknown>, string[]][] = [
  ["blame", { path: "b.txt" }, ["b.txt"]],
  ["intent", { path: "b.txt", startLine: 1, endLine: 1 }, ["b.txt", "-L", "1,1"]],
  ["history", { path: "b.txt", startLine: 1, endLine: 1 }, ["b.txt", "-L", "1,1"]],
  ["history", { path: "b.txt" }, ["b.txt"]],
  ["cochange", { paths: ["b.txt"] }, ["b.txt"]],
  ["hotspots", {}, ["--commits", "1"]],
  ["contributors", { path: "b.txt" }, ["b.txt"]],
  ["owners", { path: "b.txt" }, ["b.txt"]],
  ["log", {}, []],
  ["show", { rev: "HEAD" }, ["HEAD"]],
  ["compare", { base: "HEAD~1" }, ["HEAD~1"]],
  ["search", { query: "One" }, ["One"]],
  ["review", {}, []],
  ["status", {}, []],
  ["changes", {}, []],
];

describe("no count of one with a plural noun", () => {
  test("the helper says 1 commit, 2 commits, 0 commits, and takes an odd plural", () => {
    expect([plural(1, "commit"), plural(2, "commit"), plural(0, "commit"), plural(1, "person", "people"), plural(3, "person", "people")]).toEqual(["1 commit", "2 commits", "0 commits", "1 person", "3 people"]);
  });

  test("on the command line", () => {
    for (const [q, , args] of RUNS) {
      const r = cli(repo.dir, [q, ...args]);
      expect({ q, code: r.code, stderr: r.stderr }).toEqual({ q, code: 0, stderr: "" });
      expect({ q, wrong: WRONG.exec(r.stdout)?.[0] }).toEqual({ q, wrong: undefined });
    }
    const snapshots = cli(repo.dir, ["snapshots"]).stdout;
    expect(WRONG.exec(snapshots)?.[0]).toBeUndefined();
  });

  test("in MCP's text", async () => {
    const deps = { scope: new RepoScope(repo.dir), call: (name: string, input: Record<string, unknown>, o: { cwd: string }) => answer(name, input, { cwd: o.cwd }), noDaemon: true, maxBytes: DEFAULT_MAX_BYTES, log: () => {} };
    for (const [q, input] of RUNS) {
      const tool = queryForTool(`lore_${q}`);
      if (!tool) continue;
      const text = (await callTool(tool, input, deps)).content[0]!.text;
      expect({ q, wrong: WRONG.exec(text)?.[0] }).toEqual({ q, wrong: undefined });
    }
  });

  test("in the lines a cut, partial or continued answer adds", () => {
    const partial = { repo: "/r", rev: "x", path: "a", partial: true, progress: { files: 1, of: 1 }, continue: "t", results: [] };
    expect(WRONG.exec(render("contributors", partial, plain))?.[0]).toBeUndefined();
    const lines = { repo: "/r", path: "a", partial: true, progress: { lines: 1, of: 1 }, continue: "t" };
    expect(WRONG.exec(render("blame", lines, plain))?.[0]).toBeUndefined();
  });

  test("in the progress a terminal shows while lore works", () => {
    expect(progressLine({ state: "indexing", commitsIndexed: 1 }, "history")).toBe("lore: indexing history, 1 commit so far…");
    for (const p of [{ files: 1, of: 1 }, { lines: 1, of: 1 }, { found: 1 }, { commits: 1 }, { commits: 1, of: 1 }] as const) expect(WRONG.exec(progressMessage(p, "q"))?.[0]).toBeUndefined();
  });
});
