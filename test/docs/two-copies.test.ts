/** The docs say what MCP sends: its JSON copy is the lean one, not --json's object, and its text copy says the same as lines. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { REFERENCE_FILE } from "../../build/docs.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { QUERIES } from "../../src/queries/index.ts";

const ROOT = join(import.meta.dir, "../..");
const page = readFileSync(REFERENCE_FILE, "utf8");

function section(name: string): string {
  const start = page.indexOf(`\n## ${name}\n`);
  const next = page.indexOf("\n## ", start + 1);
  return page.slice(start, next < 0 ? undefined : next);
}

test("no page says MCP's structuredContent is the --json object", () => {
  expect(page).not.toContain("The answer (`--json`, MCP `structuredContent`)");
  expect(readFileSync(join(ROOT, "docs/questions.md"), "utf8")).not.toMatch(/return the same objects? as `structuredContent`/);
});

test("the reference lists each tool's own JSON copy, field by field, from its output schema", () => {
  for (const q of QUERIES.filter((q) => q.mcp !== false && !q.textForModel)) {
    const text = section(q.name);
    expect({ q: q.name, has: text.includes("MCP's copy (`structuredContent`") }).toEqual({ q: q.name, has: true });
    const whole = (z.toJSONSchema(outputSchema(q), { target: "draft-7", io: "output" }) as { anyOf: { properties?: object }[] }).anyOf[0]!;
    for (const field of Object.keys(whole.properties ?? {})) expect({ q: q.name, field, listed: text.includes(`| \`${field}\``) }).toEqual({ q: q.name, field, listed: true });
  }
  // The lean rows: log's commits as tuples named by columns.
  expect(section("log")).toMatch(/MCP's copy[^\n]*\n(?:.*\n)*?\| `columns` \|/);
});
