/** The size budget on the repository-level answers: a long patch is cut at a line, a long log keeps its newest commits. */
import { expect, test } from "bun:test";
import { capAnswer } from "../../src/mcp/cap.ts";
import { moreHint } from "../../src/mcp/hints.ts";

test("a patch over the budget is cut at a whole line, marked truncated, and the hint says so", () => {
  const patch = Array.from({ length: 2000 }, (_, i) => `+line ${i} ${"x".repeat(40)}`).join("\n") + "\n";
  const c = capAnswer("show", { repo: "/r", sha: "a", files: [], filesTotal: 0, patch, truncated: false }, 16_384);
  const r = c.result as { patch: string; truncated: boolean };
  expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(16_384);
  expect(r.truncated).toBe(true);
  expect(patch.startsWith(r.patch)).toBe(true);
  expect(r.patch.endsWith("\n")).toBe(true);
  expect(moreHint("show", c, undefined)).toContain("patch was cut");
});

test("a log over the budget keeps its newest commits and says how to ask for fewer", () => {
  const commits = Array.from({ length: 500 }, (_, i) => ({ sha: `c${i}`, subject: "s".repeat(100) }));
  const c = capAnswer("log", { repo: "/r", rev: "x", paths: [], commits, truncated: false }, 16_384);
  const kept = (c.result as { commits: unknown[] }).commits;
  expect(kept.length).toBeGreaterThan(10);
  expect(kept).toEqual(commits.slice(0, kept.length));
  expect(moreHint("log", c, 500)).toContain(`limit ${kept.length}`);
});
