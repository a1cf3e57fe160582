/** The MCP tools, one per question in the registry: `lore_<name>` with its schemas and annotations. */
import { QUERIES } from "../queries/index.ts";
import type { AnyQuery } from "../queries/define.ts";
import { inputSchema, jsonSchema, outputSchema } from "./schemas.ts";

export const TOOL_PREFIX = "lore_";

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Absent for a question that answers the model in text (textForModel). */
  outputSchema?: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: false; idempotentHint: boolean; destructiveHint: boolean };
}

let registryListings: ToolListing[] | undefined;

/**
 * What tools/list sends, from the same declarations the CLI and the daemon use: built once per
 * process for the registry (lore serve makes a server per request, and building them takes ~0.4 s).
 */
export function toolListings(queries: readonly AnyQuery[] = QUERIES): ToolListing[] {
  if (queries === QUERIES) return (registryListings ??= listingsOf(queries));
  return listingsOf(queries);
}

function listingsOf(queries: readonly AnyQuery[]): ToolListing[] {
  return queries.filter((def) => def.mcp !== false).map((def) => ({
    name: TOOL_PREFIX + def.name,
    title: def.summary,
    description: def.description,
    inputSchema: jsonSchema(inputSchema(def), "input"),
    ...(def.textForModel ? {} : { outputSchema: jsonSchema(outputSchema(def), "output") }),
    // The SDK's defaults say "may write, talks to the world": lore does neither, except restore, which writes files back.
    annotations: { title: def.summary, readOnlyHint: !def.writes, openWorldHint: false, idempotentHint: !def.writes, destructiveHint: def.writes === true },
  }));
}

export function queryForTool(toolName: string): AnyQuery | undefined {
  if (!toolName.startsWith(TOOL_PREFIX)) return undefined;
  const name = toolName.slice(TOOL_PREFIX.length);
  return QUERIES.find((q) => q.name === name && q.mcp !== false);
}

/** What the model reads of the tools on every turn (name, description, input schema), in bytes: the 8 KB budget. */
export function modelFacingBytes(listings: ToolListing[] = toolListings()): { total: number; tools: Record<string, number> } {
  const tools: Record<string, number> = {};
  for (const t of listings) tools[t.name] = Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  return { total: Object.values(tools).reduce((a, b) => a + b, 0), tools };
}
