/** Lines by coding agent in owners' and contributors' model copies: { agent: lines } (the share is lines over the answer's own total). */
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
