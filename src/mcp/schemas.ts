/** The JSON Schemas of an MCP tool, built from a question's plain-data arguments and its zod output shape. */
import { z } from "zod";
import type { AnyQuery, ArgSpec } from "../queries/define.ts";

/** What `repo` means here: not the CLI's "current folder", and bounded by the allow-list. */
const REPO_DESCRIPTION = "Another repository (a folder in it); default: this one.";

/** Arguments an agent can send: every one the question declares, but those for the CLI only. */
export function toolArgs(def: AnyQuery): [string, ArgSpec][] {
  return Object.entries(def.args).filter(([, spec]) => spec.mcp !== false);
}

/** Drops the CLI's flag spellings from a description: an agent never types them. */
function forAgents(description: string): string {
  return description
    .replace(/\s*\(CLI:[^)]*\)/g, "")
    .replace(/\s*CLI: [^.]*\.?/g, "")
    .trim();
}

function fieldSchema(name: string, spec: ArgSpec): z.ZodType {
  let field: z.ZodType;
  if (spec.type === "integer") {
    let n = z.number().int();
    if (spec.min !== undefined) n = n.min(spec.min);
    if (spec.max !== undefined) n = n.max(spec.max);
    field = n;
  } else if (spec.type === "boolean") field = z.boolean();
  else if (spec.type === "strings") field = z.array(z.string());
  else field = z.string();
  if (spec.default !== undefined) field = (field as z.ZodType<unknown>).default(spec.default as never);
  else if (!spec.required) field = field.optional();
  return field.describe(name === "repo" ? REPO_DESCRIPTION : forAgents(spec.description));
}

export function inputSchema(def: AnyQuery): z.ZodObject {
  return z.strictObject(Object.fromEntries(toolArgs(def).map(([name, spec]) => [name, fieldSchema(name, spec)])));
}

/** The contract object, plus `truncated` for the questions whose lists only MCP cuts to fit the size budget. */
export function outputSchema(def: AnyQuery): z.ZodType {
  const out = def.output(z);
  if (out instanceof z.ZodObject && !("truncated" in out.shape)) return out.extend({ truncated: z.boolean().optional() });
  return out;
}

/** zod's integer bounds (±2^53-1) say nothing to an agent and cost tokens in every tools/list. */
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "maximum" && v === Number.MAX_SAFE_INTEGER) || (k === "minimum" && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = dropSafeIntegerBounds(v);
  }
  return out;
}

/** JSON Schema draft-07, the dialect the SDK's own tools use and its client validates with. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = dropSafeIntegerBounds(z.toJSONSchema(schema, { target: "draft-7", io })) as Record<string, unknown>;
  // The dialect line says nothing to the model, and the input schema is sent to it on every turn.
  if (io === "input") delete out.$schema;
  return out;
}
