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

test("git's output is cut at a line end to fit the budget, and a continue gives the rest from there", () => {
  const answer = { repo: "/r", args: ["log"], exitCode: 0, stdout: 'a "quoted" line\n'.repeat(3000), stderr: "", truncated: false };
  let sealed: unknown;
  const out = pageOf("git", answer, undefined, 16 * 1024, (o) => ((sealed = o), "123456789012")) as typeof answer & { continue: string };
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(16 * 1024);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeGreaterThan(15 * 1024);
  expect(out.truncated).toBe(true);
  expect(out.stdout.endsWith("line\n")).toBe(true);
  expect(answer.stdout.startsWith(out.stdout)).toBe(true);
  expect(sealed).toEqual([out.stdout.length]);
  // The pages after it, each from where the one before ended, are git's output whole.
  let text = out.stdout;
  for (let from = out.stdout.length, pages = 1; ; pages++) {
    const next = pageOf("git", answer, [from], 16 * 1024, (o) => ((sealed = o), "t")) as typeof answer & { after: number; continue?: string };
    expect(next.after).toBe(from);
    expect(Buffer.byteLength(JSON.stringify(next))).toBeLessThanOrEqual(16 * 1024);
    text += next.stdout;
    if (!next.continue) break;
    from = (sealed as number[])[0]!;
    expect(pages).toBeLessThan(10);
  }
  expect(text).toBe(answer.stdout);
  expect(pageOf("git", { ...answer, stdout: "short\n" }, undefined, 16 * 1024, () => "t")).toEqual({ ...answer, stdout: "short\n" });
});

test("a partial compare's token holds where its patch is to start, so its continue opens as the question's", () => {
  let sealed: unknown;
  const partial = { repo: "/r", partial: true, commits: [{ sha: sha(1), subject: "s" }] };
  pageOf("compare", partial, undefined, 16 * 1024, (o) => ((sealed = o), "t"));
  expect(sealed).toEqual([1, 0, 0]);
  pageOf("compare", partial, [3, null, 500], 16 * 1024, (o) => ((sealed = o), "t"));
  expect(sealed).toEqual([4, null, 500]);
});
