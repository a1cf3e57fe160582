/** Lines by coding agent: the lines of commits an agent is credited with, beside (never instead of) the people who wrote them. */
import type { QueryContext } from "../context.ts";

/** The agent credited with each commit (full id) that has one, read once per answer. */
export function agentsByCommit(ctx: QueryContext): Map<string, string> {
  return ctx.index.store.provenance.agentCommits();
}

/** Adds `n` lines of agent `agent` (if any) to `into`. */
export function addAgentLines(into: Map<string, number>, agent: string | undefined, n: number): void {
  if (agent) into.set(agent, (into.get(agent) ?? 0) + n);
}

/** { agent: { lines, share } }, most lines first, of `total` lines (share to 2 places); undefined where no agent wrote any (the field is left out). */
export function agentShares(lines: Map<string, number>, total: number): Record<string, { lines: number; share: number }> | undefined {
  if (lines.size === 0) return undefined;
  const sorted = [...lines].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  return Object.fromEntries(sorted.map(([agent, n]) => [agent, { lines: n, share: total ? Math.round((n / total) * 100) / 100 : 0 }]));
}
