/** The docs cannot drift from the code: the reference page is what build/docs.ts generates, and names every question, flag and field. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REFERENCE_FILE, outputRows, referenceMarkdown } from "../../build/docs.ts";
import { questionFlags } from "../../src/cli/flag-list.ts";
import { QUERIES } from "../../src/queries/index.ts";

const ROOT = join(import.meta.dir, "../..");
const page = readFileSync(REFERENCE_FILE, "utf8");

/** The part of the page about one question: from its heading to the next. */
function section(name: string): string {
  const start = page.indexOf(`\n## ${name}\n`);
  if (start < 0) return "";
  const next = page.indexOf("\n## ", start + 1);
  return page.slice(start, next < 0 ? undefined : next);
}

test("docs/reference.md is what npm run docs writes now (regenerate it after changing a question)", () => {
  // On failure: run `npm run docs` and commit docs/reference.md.
  expect(page === referenceMarkdown() ? "current" : "stale: run npm run docs and commit docs/reference.md").toBe("current");
});

test("the reference names every question, each of its flags and MCP parameters, and every field of its answer", () => {
  const missing: string[] = [];
  for (const q of QUERIES) {
    const text = section(q.name);
    if (!text) {
      missing.push(`question ${q.name}`);
      continue;
    }
    for (const f of questionFlags(q)) if (!text.includes(`${f.long.length === 1 ? "-" : "--"}${f.long}`)) missing.push(`${q.name} --${f.long}`);
    for (const name of Object.keys(q.args)) if (!text.includes(`\`${name}\``)) missing.push(`${q.name} argument ${name}`);
    for (const row of outputRows(q)) if (!text.includes(`| \`${row.path}\` |`)) missing.push(`${q.name} field ${row.path}`);
  }
  expect(missing).toEqual([]);
});

test("nested answer fields are listed by their path (log's commits[].files[].path)", () => {
  const log = QUERIES.find((q) => q.name === "log")!;
  const paths = outputRows(log).map((r) => r.path);
  expect(paths).toContain("commits[].sha");
  expect(paths).toContain("commits[].files[].path");
});

test("the README's table of questions has a row for every question", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const rows = readme.split("\n").filter((l) => l.startsWith("| `lore "));
  const named = new Set(rows.map((l) => /^\| `lore ([a-z-]+)/.exec(l)![1]));
  expect(QUERIES.map((q) => q.name).filter((n) => !named.has(n))).toEqual([]);
});
