/** The JSON Schemas of an MCP tool, built from a question's plain-data arguments and its zod output shape. */
import { z } from "zod";
import { modelSchema } from "./model-view.ts";
import { COMMON_ARGS, type AnyQuery, type ArgSpec } from "../queries/define.ts";
import { PAGED, TEXT_PAGED } from "../queries/pages.ts";


/** Arguments an agent can send: every one the question declares, but those only the CLI offers. */
export function toolArgs(def: AnyQuery): [string, ArgSpec][] {
  return Object.entries(def.args).filter(([, spec]) => !spec.cliOnly);
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
  // Bounds are checked with the CLI's messages (validateInput): the model pays for them on every turn.
  if (spec.type === "integer") field = z.number().int();
  else if (spec.type === "boolean") field = z.boolean();
  else if (spec.type === "strings") field = z.array(z.string());
  else field = z.string();
  // A default is the server's to apply (validateInput): an agent leaves the argument out, and the
  // defaults were 150 bytes of every turn.
  if (!spec.required) field = field.optional();
  // repo and until mean the same in every tool: the server's instructions describe them once.
  if (name in COMMON_ARGS) return field;
  const said = spec.agent ?? forAgents(spec.description);
  return said === "" ? field : field.describe(said);
}

export function inputSchema(def: AnyQuery): z.ZodObject {
  return z.strictObject(Object.fromEntries(toolArgs(def).map(([name, spec]) => [name, fieldSchema(name, spec)])));
}

/** The contract object, plus `truncated` for the questions whose lists only MCP cuts to fit the size budget. */
export function outputSchema(def: AnyQuery): z.ZodType {
  let out = def.output(z);
  if (out instanceof z.ZodObject && !("truncated" in out.shape)) out = out.extend({ truncated: z.boolean().optional() });
  // The model's copy leaves out what model-view.ts says.
  return withPartial(def.name, modelSchema(def.name, out));
}

/** The keys a continued page has beside its lists: blame's lines and commits table, and the lists the model's rows reshape (model-rows.ts). */
const PAGE_KEYS: Record<string, string[]> = { blame: ["range", "commits", "boundary"], hotspots: ["commits", "under", "hotspotsAbove"], cochange: ["under"] };

/**
 * An answer given at its deadline (src/queries/partial.ts): the fields found so far, partial, how far
 * it got and a continue token; a cut one carries a continue token, and a continued page says after
 * how many items its lists start (src/queries/pages.ts). The output schema is not sent to the model:
 * these cost no tool bytes.
 */
function withPartial(question: string, out: z.ZodType): z.ZodType {
  const progress = z.union([
    z.object({ commits: z.number().int(), of: z.number().int().optional(), oldest: z.string().optional() }),
    z.object({ found: z.number().int(), oldest: z.string().optional() }),
    z.object({ files: z.number().int(), of: z.number().int() }),
    z.object({ lines: z.number().int(), of: z.number().int() }),
  ]);
  const ask = { after: z.number().int().optional(), continue: z.string().optional() };
  const whole = out instanceof z.ZodObject ? out.extend(ask) : out;
  const partial = z.looseObject({ repo: z.string().optional(), partial: z.literal(true), progress: progress.optional(), continue: z.string(), after: ask.after });
  // A continued page (the model's copy): the lists after those sent before, and a continue while there are more.
  const lists = [...(PAGED[question] ?? []).map((s) => s.key), "columns", ...(PAGE_KEYS[question] ?? []), ...(question in TEXT_PAGED ? [TEXT_PAGED[question]!] : [])];
  const page = z.strictObject({ ...Object.fromEntries(lists.map((k) => [k, z.unknown().optional()])), continue: ask.continue });
  return z.union([whole, partial, page]);
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
  // The dialect line says nothing to the model, and the input schema is sent to it on every turn; nor
  // does additionalProperties: false (29 bytes a tool): the server refuses an unknown argument by name.
  if (io === "input") {
    delete out.$schema;
    delete out.additionalProperties;
  }
  // MCP wants an object at the top: a whole answer or a partial one is still one.
  if (out.anyOf && out.type === undefined) return { $schema: out.$schema, type: "object", anyOf: out.anyOf };
  return out;
}
