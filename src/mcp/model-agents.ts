/** Lines by coding agent in owners', contributors' and blame's model copies: { agent: lines } (the share is lines over the answer's own total), and those copies' schemas. */
import { z } from "zod";

type Answer = Record<string, unknown>;

/** The answer's agents, and each row's (owners by folder or file), as lines. */
export function agentLines(out: Answer): Answer {
  if (out.agents && typeof out.agents === "object") out.agents = Object.fromEntries(Object.entries(out.agents as Record<string, { lines: number }>).map(([a, v]) => [a, v.lines]));
  if (Array.isArray(out.results)) out.results = (out.results as Answer[]).map((r) => (r && typeof r === "object" && !Array.isArray(r) && r.agents ? agentLines({ ...r }) : r));
  return out;
}

/** A contributors row's own fields at the end of its tuple (none: nothing added). */
export function ownFields(r: Answer): Answer[] {
  const own = { ...(r.agentLines ? { agentLines: r.agentLines } : {}), ...(r.bot ? { bot: true } : {}) };
  return Object.keys(own).length ? [own] : [];
}

export function agentLinesSchema() {
  return z.record(z.string(), z.number().int()).optional();
}

/** owners' copy: the path's and each row's agents as lines. */
export function ownersAgentsSchema(out: z.ZodObject) {
  const rows = out.shape.results;
  const element = rows instanceof z.ZodOptional && rows.unwrap() instanceof z.ZodArray ? ((rows.unwrap() as z.ZodArray).element as z.ZodObject) : undefined;
  return { agents: agentLinesSchema(), ...(element ? { results: z.array(element.extend({ agents: agentLinesSchema() })).optional() } : {}) };
}

/** The output schema of owners' and contributors' copies (people by lines, agents beside), or undefined for another question. */
export function peopleSchema(question: string, out: z.ZodObject, columns: z.ZodType): z.ZodObject | undefined {
  if (question === "owners")
    return out.extend({
      authors: z.record(z.string(), z.number().int()).describe("lines by author, most first: those with a tenth of the first's lines or more, unless limit is given"),
      truckAuthors: z.array(z.string()).optional().describe("when not the first authors"),
      ...ownersAgentsSchema(out),
    });
  if (question === "contributors")
    return out.extend({
      columns: columns.optional(),
      results: z.record(z.string(), z.union([z.tuple([z.number().int(), z.number().int(), z.string()]), z.tuple([z.number().int(), z.number().int(), z.string(), z.object({ bot: z.literal(true).optional(), agentLines: z.number().int().optional() })])])).describe("[lines, commits, lastChanged] by Name <email>, people first, then bots").optional(),
      agents: agentLinesSchema(),
    });
  return undefined;
}
