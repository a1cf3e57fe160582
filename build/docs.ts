/**
 * `npm run docs`: writes docs/reference.md from the registry (every question's flags,
 * MCP parameters and answer fields), so the reference cannot drift from the code; a test
 * fails while the checked-in page differs from what this prints.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { QUERIES } from "../src/queries/index.ts";
import type { AnyQuery } from "../src/queries/define.ts";
import { flagLabel, questionFlags, questionPositionals } from "../src/cli/flag-list.ts";
import { COMMANDS, usageLine } from "../src/cli/help.ts";
import { TOOL_PREFIX } from "../src/mcp/tools.ts";
import { outputSchema, toolArgs } from "../src/mcp/schemas.ts";

export const REFERENCE_FILE = join(import.meta.dir, "..", "docs/reference.md");

type Schema = Record<string, unknown>;

export interface FieldRow {
  path: string;
  type: string;
  optional: boolean;
}

/** A `|` inside a table cell ends the cell; Markdown lets it be escaped. */
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The type of one JSON Schema node in a few words: `string`, `integer[]`, `[integer, string]`, `"a" or "b"`. */
function typeName(node: Schema): string {
  if (Array.isArray(node.anyOf)) return (node.anyOf as Schema[]).map(typeName).join(" or ");
  if ("const" in node) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return (node.enum as unknown[]).map((v) => JSON.stringify(v)).join(" or ");
  if (Array.isArray(node.type)) return (node.type as string[]).join(" or ");
  if (node.type === "array") {
    if (Array.isArray(node.items)) return `[${(node.items as Schema[]).map(typeName).join(", ")}]`;
    const item = (node.items ?? {}) as Schema;
    const inner = typeName(item);
    return item.anyOf || item.enum ? `(${inner})[]` : `${inner}[]`;
  }
  if (node.type === "object") return node.properties ? "object" : node.additionalProperties ? `{ key: ${typeName(node.additionalProperties as Schema)} }` : "object";
  return typeof node.type === "string" ? node.type : "any";
}

/** The object a field holds, when it is one (itself, a list of them, a map of them, or one of them or null). */
function nested(node: Schema): { schema: Schema; suffix: string } | undefined {
  if (node.type === "object" && node.properties) return { schema: node, suffix: "." };
  if (node.type === "object" && node.additionalProperties && typeof node.additionalProperties === "object") {
    const inner = nested(node.additionalProperties as Schema);
    return inner && { schema: inner.schema, suffix: `.KEY${inner.suffix}` };
  }
  if (node.type === "array" && node.items && !Array.isArray(node.items)) {
    const inner = nested(node.items as Schema);
    return inner && { schema: inner.schema, suffix: `[]${inner.suffix}` };
  }
  if (Array.isArray(node.anyOf)) {
    const objects = (node.anyOf as Schema[]).map(nested).filter((n) => n !== undefined);
    return objects.length === 1 ? objects[0] : undefined;
  }
  return undefined;
}

/** Every field of an answer, nested ones as `commits[].sha`, in the schema's order. */
export function fieldRows(schema: Schema, prefix = ""): FieldRow[] {
  const rows: FieldRow[] = [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, node] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const inner = nested(node);
    const type = inner && inner.suffix !== "." ? typeName(node).replace(/\bobject\b/, "object") : typeName(node);
    rows.push({ path: prefix + name, type, optional: !required.has(name) });
    if (inner) rows.push(...fieldRows(inner.schema, prefix + name + inner.suffix));
  }
  return rows;
}

export function outputRows(q: AnyQuery): FieldRow[] {
  return fieldRows(z.toJSONSchema(q.output(z), { target: "draft-7", io: "output" }) as Schema);
}

/** The fields of MCP's JSON copy of a whole answer: the first of its output schema's forms (a partial answer and a continued page are the others). */
export function modelRows(q: AnyQuery): FieldRow[] {
  const schema = z.toJSONSchema(outputSchema(q), { target: "draft-7", io: "output" }) as Schema;
  return fieldRows(Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[])[0]! : schema);
}

function fieldTable(rows: FieldRow[]): string[] {
  return ["| field | type | |", "|---|---|---|", ...rows.map((r) => `| \`${r.path}\` | ${cell(r.type)} | ${r.optional ? "optional" : ""} |`), ""];
}

function questionSection(q: AnyQuery): string[] {
  const out = [`## ${q.name}`, "", `${q.summary}.`, "", "```", usageLine(q), "```", ""];
  const pos = questionPositionals(q);
  if (pos.length) {
    out.push("| argument | | |", "|---|---|---|");
    for (const p of pos) out.push(`| \`${p.word}\` | ${p.required ? "required" : "optional"}${p.path ? ", a path" : ""} | ${cell(q.args[p.name]!.description)} |`);
    out.push("");
  }
  out.push("| flag | sets | |", "|---|---|---|");
  for (const f of questionFlags(q)) {
    const name = flagLabel(f);
    const spec = f.field ? q.args[f.field] : undefined;
    const dflt = spec?.default !== undefined && spec.type !== "boolean" && !/default/i.test(f.description) ? ` Default ${JSON.stringify(spec.default)}.` : "";
    out.push(`| \`${cell(name)}\` | ${f.field ? `\`${f.field}\`` : ""} | ${cell(f.description)}${dflt} |`);
  }
  out.push("");
  if (q.mcp === false) out.push("MCP: none (another tool's parameter does its work).", "");
  else {
    const params = toolArgs(q).map(([name]) => `\`${name}\``);
    out.push(`MCP: \`${TOOL_PREFIX}${q.name}\` { ${params.join(", ")} }${q.writes ? " — writes to the work tree (destructiveHint)" : ""}.`, "");
  }
  out.push("The answer (`--json`):", "", ...fieldTable(outputRows(q)));
  if (q.mcp === false) return out;
  if (q.textForModel) out.push("MCP's copy: text alone (no `structuredContent`), the CLI's text made compact.", "");
  else out.push("MCP's copy (`structuredContent`; the text `content` says the same as lines), lean: what the agent has or does not use left out, rows as tuples where `columns` names them:", "", ...fieldTable(modelRows(q)));
  return out;
}

/** The whole page. */
export function referenceMarkdown(): string {
  return [
    "# Reference",
    "",
    "<!-- Generated by build/docs.ts from src/queries/ (npm run docs). Do not edit: a test fails while it is stale. -->",
    "",
    "Every question's arguments, flags, MCP tool and answer fields, as the code declares them.",
    "What the answers mean, and how they match git: [questions.md](questions.md).",
    "Over MCP an answer comes in two copies that say the same: `structuredContent`, a lean JSON (the fields listed under each question), and the text `content`, the same keys and values as lines. A page of either is cut to fit the size budget and 8,192 characters of text, with `continue` for the rest.",
    "",
    "| question | |",
    "|---|---|",
    ...QUERIES.map((q) => `| [${q.name}](#${q.name}) | ${cell(q.summary)} |`),
    "",
    "Commands that are not questions (`lore <command> --help` for their flags):",
    "",
    "| command | |",
    "|---|---|",
    ...COMMANDS.map(([c, d]) => `| \`lore ${cell(c)}\` | ${cell(d)} |`),
    "",
    ...QUERIES.flatMap(questionSection),
  ].join("\n");
}

if (import.meta.main) {
  const text = referenceMarkdown();
  writeFileSync(REFERENCE_FILE, text);
  console.error(`wrote ${REFERENCE_FILE} (${QUERIES.length} questions, ${text.length} bytes)`);
}
