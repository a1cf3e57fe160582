/** blame's lines by coding agent: the lines of the hunks an answer holds whose commit credits an agent, counted from its own commits table. */
import type { BlameHunk, BlameOutput } from "./blame.ts";
import { addAgentLines, agentShares } from "./run/agent-shares.ts";

type Answer = Record<string, unknown>;

/**
 * The answer with `agents` for the hunks it holds (a page or a deadline's part: only the lines sent),
 * each agent's share of those lines; left out where none of them is an agent's. Uncommitted lines
 * (the file on disk) count in the lines, never for an agent.
 */
export function withBlameAgents<T extends Answer | BlameOutput>(answer: T): T {
  const a = answer as Answer;
  const hunks = Array.isArray(a.hunks) ? (a.hunks as BlameHunk[]) : [];
  const commits = a.commits && typeof a.commits === "object" ? (a.commits as BlameOutput["commits"]) : {};
  const lines = new Map<string, number>();
  let total = 0;
  for (const [start, end, sha] of hunks) {
    total += end - start + 1;
    const marks = sha === null ? undefined : commits[sha]?.[3];
    addAgentLines(lines, marks?.agent, end - start + 1);
  }
  const agents = agentShares(lines, total);
  // Beside the commits table it is counted from.
  const out: Answer = {};
  for (const [k, v] of Object.entries(a)) {
    if (k === "agents") continue;
    out[k] = v;
    if (k === "commits" && agents) out.agents = agents;
  }
  return out as T;
}
