/** The size budget on the repository-level answers: a long patch is cut at a line, a long log keeps its newest commits, a long file comes in pages. */
import { expect, test } from "bun:test";
import { capAnswer, DEFAULT_MAX_BYTES } from "../../src/mcp/cap.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { moreHint } from "../../src/mcp/hints.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import { pageOf } from "../../src/queries/pages.ts";
import { TestRepo } from "../helpers/git-repo.ts";
import { isolateHome } from "../helpers/lore.ts";

test("a patch over the budget is cut at a whole line, marked truncated, and the hint says so", () => {
  const patch = Array.from({ length: 2000 }, (_, i) => `+line ${i} ${"x".repeat(40)}`).join("\n") + "\n";
  const c = capAnswer("show", { repo: "/r", sha: "a", files: [], filesTotal: 0, patch, truncated: false }, 16_384);
  const r = c.result as { patch: string; truncated: boolean };
  expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(16_384);
  expect(r.truncated).toBe(true);
  expect(patch.startsWith(r.patch)).toBe(true);
  expect(r.patch.endsWith("\n")).toBe(true);
  expect(moreHint("show", c)).toContain("patch was cut");
});

test("a log over the budget keeps its newest commits and a token for the rest", () => {
  const commits = Array.from({ length: 500 }, (_, i) => ({ sha: `c${i}`, subject: "s".repeat(100) }));
  const page = pageOf("log", { repo: "/r", rev: "x", paths: [], commits, truncated: false }, undefined, 16_384, (o) => `${o[0]}`) as { commits: unknown[]; continue: string };
  expect(page.commits.length).toBeGreaterThan(10);
  expect(page.commits).toEqual(commits.slice(0, page.commits.length));
  expect(page.continue).toBe(String(page.commits.length));
});

test("a long file's text over MCP comes in pages of up to 48 KB, each saying from where the rest goes on, and together they are git show's", async () => {
  isolateHome();
  const r = new TestRepo();
  try {
    r.write("big.txt", Array.from({ length: 2600 }, (_, i) => `line ${i + 1} ${"x".repeat(36)}\n`).join("")).commit("big");
    const deps = { scope: new RepoScope(r.dir), call: (name: string, input: Record<string, unknown>, o: { cwd: string }) => answer(name, input, { cwd: o.cwd }), noDaemon: true, maxBytes: DEFAULT_MAX_BYTES, log: () => {} };
    const show = queryForTool("lore_show")!;
    const pages: string[] = [];
    let args: Record<string, unknown> = { rev: "HEAD:big.txt" };
    for (;;) {
      const text = (await callTool(show, args, deps)).content[0]!.text;
      // Under Claude Code's 50,000 characters, which it keeps in the conversation.
      expect(text.length).toBeLessThan(50_000);
      const more = /\n… (\d+) more lines from startLine (\d+)$/.exec(text);
      pages.push(more ? text.slice(0, more.index + 1) : text);
      if (!more) break;
      args = { rev: "HEAD:big.txt", startLine: Number(more[2]) };
    }
    expect(pages.length).toBe(3);
    // (The text face ends without the last newline, as every tool's text does.)
    expect(pages.join("")).toBe(r.git("show", "HEAD:big.txt").replace(/\n$/, ""));
  } finally {
    r.cleanup();
  }
});
