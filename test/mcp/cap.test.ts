import { describe, expect, test } from "bun:test";
import { capAnswer, maxBytes } from "../../src/mcp/cap.ts";
import { moreHint } from "../../src/mcp/hints.ts";

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const sha = (i: number) => i.toString(16).padStart(40, "0");

describe("the answer size budget", () => {
  test("an answer within the budget is passed through untouched", () => {
    const r = { repo: "/r", path: "a", results: [{ path: "b" }], truncated: false };
    expect(capAnswer("cochange", r, 16384)).toEqual({ result: r });
  });

  test("a long list keeps the longest prefix that fits and is marked truncated", () => {
    const results = Array.from({ length: 500 }, (_, i) => ({ path: `src/file-${i}.ts`, count: i, confidence: 0.5, jaccard: 0.25 }));
    const capped = capAnswer("cochange", { repo: "/r", path: "a", results, truncated: false }, 4096);
    expect(size(capped.result)).toBeLessThanOrEqual(4096);
    const kept = (capped.result.results as unknown[]).length;
    expect(size({ repo: "/r", path: "a", results: results.slice(0, kept + 1), truncated: true })).toBeGreaterThan(4096);
    expect(capped.result.truncated).toBe(true);
    expect(capped.cut).toEqual({ kept, total: 500 });
    expect(moreHint("cochange", capped, 500)).toContain(`limit ${kept}`);
  });

  test("history's hint names the revision and the old name to continue from", () => {
    const commits = Array.from({ length: 100 }, (_, i) => ({ sha: sha(i), subject: "x".repeat(200), path: "new.ts", ...(i === 5 ? { oldPath: "old.ts", status: "R" } : {}) }));
    const capped = capAnswer("history", { repo: "/r", path: "new.ts", commits, truncated: false }, 2048);
    const kept = capped.cut!.kept;
    const last = commits[kept - 1]!;
    expect(moreHint("history", capped, 20)).toContain(`until "${last.sha}^" and path "${last.oldPath ?? last.path}"`);
  });

  test("one commit message larger than the budget is shortened, not dropped", () => {
    const r = { repo: "/r", path: "a", range: [1, 2], commits: [{ sha: sha(1), message: "m".repeat(50_000), lines: [[1, 2]], files: [] }] };
    const capped = capAnswer("intent", r, 4096);
    expect(size(capped.result)).toBeLessThanOrEqual(4096);
    expect((capped.result.commits as { message: string }[])[0]!.message.endsWith("…")).toBe(true);
    expect(moreHint("intent", capped, undefined)).toContain("git show");
  });

  test("LORE_MCP_MAX_BYTES sets the budget; nonsense falls back to 16 KB", () => {
    expect(maxBytes({ LORE_MCP_MAX_BYTES: "50000" })).toBe(50000);
    expect(maxBytes({ LORE_MCP_MAX_BYTES: "lots" })).toBe(16384);
    expect(maxBytes({})).toBe(16384);
  });
});

test("git's output is cut at a line end to fit the budget, and the answer says so", () => {
  const answer = { repo: "/r", args: ["log"], exitCode: 0, stdout: 'a "quoted" line\n'.repeat(3000), stderr: "", truncated: false };
  const capped = capAnswer("git", answer, 16 * 1024);
  const out = capped.result as typeof answer;
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(16 * 1024);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeGreaterThan(15 * 1024);
  expect(out.truncated).toBe(true);
  expect(out.stdout.endsWith("line\n")).toBe(true);
  expect(answer.stdout.startsWith(out.stdout)).toBe(true);
  expect(capAnswer("git", { ...answer, stdout: "short\n" }, 16 * 1024).cut).toBeUndefined();
});
