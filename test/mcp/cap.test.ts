import { describe, expect, test } from "bun:test";
import { capAnswer, maxBytes } from "../../src/mcp/cap.ts";
import { pageOf } from "../../src/queries/pages.ts";

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const sha = (i: number) => i.toString(16).padStart(40, "0");

describe("the answer size budget", () => {
  test("an answer within the budget is passed through untouched", () => {
    const r = { repo: "/r", path: "a", results: [{ path: "b" }], truncated: false };
    expect(capAnswer("cochange", r, 16384)).toEqual({ result: r });
  });

  test("a long list keeps the longest prefix that fits and carries a continue token for the rest", () => {
    const results = Array.from({ length: 500 }, (_, i) => ({ path: `src/file-${i}.ts`, count: i, confidence: 0.5, jaccard: 0.25 }));
    let sealed: unknown;
    const page = pageOf("cochange", { repo: "/r", path: "a", results, truncated: false }, undefined, 4096, (o) => ((sealed = o), "123456789012")) as any;
    expect(size(page)).toBeLessThanOrEqual(4096);
    const kept = page.results.length;
    expect(size({ repo: "/r", path: "a", results: results.slice(0, kept + 1), truncated: true })).toBeGreaterThan(4096);
    expect(page.truncated).toBe(true);
    expect(page.continue).toBe("123456789012");
    expect(sealed).toEqual([kept]);
    // The continued page: the items after those, from the same whole answer.
    const next = pageOf("cochange", { repo: "/r", path: "a", results, truncated: false }, [kept], 4096, (o) => ((sealed = o), "t")) as any;
    expect(next.results[0]).toEqual(results[kept]);
    expect(next.after).toBe(kept);
  });

  test("one commit message larger than the budget is shortened, not dropped", () => {
    const r = { repo: "/r", path: "a", range: [1, 2], commits: [{ sha: sha(1), message: "m".repeat(50_000), lines: [[1, 2]], files: [] }] };
    const page = pageOf("intent", r, undefined, 4096, () => "t") as any;
    expect(size(page)).toBeLessThanOrEqual(4096);
    expect(page.commits[0].message.endsWith("…")).toBe(true);
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
