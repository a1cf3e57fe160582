/** The size budget on the repository-level answers: a long patch is cut at a line, a long log keeps its newest commits, a long file comes in pages. */
import { expect, test } from "bun:test";
import { DEFAULT_MAX_BYTES } from "../../src/mcp/cap.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import { pageOf } from "../../src/queries/pages.ts";
import { TestRepo } from "../helpers/git-repo.ts";
import { isolateHome } from "../helpers/lore.ts";

test("a patch over the budget is cut at a whole line, and its continue gives the rest, with the next files", () => {
  const patch = Array.from({ length: 2000 }, (_, i) => `+line ${i} ${"x".repeat(40)}`).join("\n") + "\n";
  const files = Array.from({ length: 60 }, (_, i) => ({ path: `f${i}`, additions: 1, deletions: 0 }));
  const whole = { repo: "/r", sha: "a", files, filesTotal: 60, patch, truncated: false };
  let sealed: (number | null)[] = [];
  const r = pageOf("show", whole, undefined, 16_384, (o) => ((sealed = o), "t")) as { files: unknown[]; patch: string; truncated: boolean; continue: string };
  expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(16_384);
  expect(r.truncated).toBe(true);
  expect(patch.startsWith(r.patch)).toBe(true);
  expect(r.patch.endsWith("\n")).toBe(true);
  expect(sealed).toEqual([50, r.patch.length]);
  const next = pageOf("show", whole, sealed, 16_384, (o) => ((sealed = o), "t")) as { files: unknown[]; patch: string };
  expect(next.files).toEqual(files.slice(50));
  expect(patch.slice(r.patch.length).startsWith(next.patch)).toBe(true);
  expect(sealed[0]).toBeNull();
});

test("a log over the budget keeps its newest commits and a token for the rest", () => {
  const commits = Array.from({ length: 500 }, (_, i) => ({ sha: `c${i}`, subject: "s".repeat(100) }));
  const page = pageOf("log", { repo: "/r", rev: "x", paths: [], commits, truncated: false }, undefined, 16_384, (o) => `${o[0]}`) as { commits: unknown[]; continue: string };
  expect(page.commits.length).toBeGreaterThan(10);
  expect(page.commits).toEqual(commits.slice(0, page.commits.length));
  expect(page.continue).toBe(String(page.commits.length));
});

test("a long file's text over MCP comes in pages of at most 8,192 characters, each saying from where the rest goes on, and together they are git show's", async () => {
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
      // Within the 8,192 characters VS Code keeps in the conversation.
      expect(text.length).toBeLessThanOrEqual(8192);
      const more = /\n… (\d+) more lines? from startLine (\d+)$/.exec(text);
      pages.push(more ? text.slice(0, more.index + 1) : text);
      if (!more) break;
      args = { rev: "HEAD:big.txt", startLine: Number(more[2]) };
    }
    // 2,600 lines of 48 characters: 125 KB.
    expect(pages.length).toBe(16);
    // (The text face ends without the last newline, as every tool's text does.)
    expect(pages.join("")).toBe(r.git("show", "HEAD:big.txt").replace(/\n$/, ""));
  } finally {
    r.cleanup();
  }
});

test("git's output over MCP comes in pages that together are git's own, and a page of output that changed meanwhile is refused", async () => {
  isolateHome();
  const r = new TestRepo();
  try {
    for (let c = 0; c < 16; c++) r.write(`f${c}.txt`, Array.from({ length: 50 }, (_, i) => `commit ${c} line ${i} "${"é".repeat(20)}"\n`).join("")).commit(`c${c}`);
    const deps = { scope: new RepoScope(r.dir), call: (name: string, input: Record<string, unknown>, o: { cwd: string }) => answer(name, input, { cwd: o.cwd }), noDaemon: true, maxBytes: DEFAULT_MAX_BYTES, log: () => {} };
    const git = queryForTool("lore_git")!;
    const read = async (args: string[]) => {
      let out = "";
      let pages = 0;
      for (let token: string | undefined; pages === 0 || token; pages++) {
        const res = await callTool(git, { args, ...(token ? { continue: token } : {}) }, deps);
        expect(res.isError).toBeUndefined();
        expect(Buffer.byteLength(JSON.stringify(res.structuredContent))).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
        const s = res.structuredContent as { stdout: string; continue?: string };
        out += s.stdout;
        token = s.continue;
      }
      return { out, pages };
    };
    const log = await read(["log", "-p"]);
    expect(log.pages).toBeGreaterThan(2);
    expect(log.out).toBe(r.git("log", "-p"));
    // The work tree's diff moves without a commit: a token from before an edit is refused.
    for (let c = 0; c < 16; c++) r.write(`f${c}.txt`, `edited ${c}\n`.repeat(60));
    const first = (await callTool(git, { args: ["diff"] }, deps)).structuredContent as { continue: string };
    expect(typeof first.continue).toBe("string");
    expect((await read(["diff"])).out).toBe(r.git("diff"));
    r.write("f0.txt", "edited again\n");
    const stale = await callTool(git, { args: ["diff"], continue: first.continue }, deps);
    expect(stale.isError).toBe(true);
    expect(stale.content[0]!.text).toStartWith("BAD_CONTINUE: ");
  } finally {
    r.cleanup();
  }
});
