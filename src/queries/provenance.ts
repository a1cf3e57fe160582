/** The provenance fields every commit in an answer may carry, as types and as the output schema's fields. */
import type { z as Zod } from "zod";

export interface Provenance {
  /** The change request (pull or merge request) that brought the commit in. */
  pr?: number;
  /** The first release tag holding the commit, or "unreleased" where the repository has releases and none holds it. */
  release?: string;
  /** The coding agent the commit credits (a short name: claude, copilot, codex, cursor, …). */
  agent?: string;
}

export function provenanceFields(z: typeof Zod) {
  return { pr: z.number().int().optional(), release: z.string().optional(), agent: z.string().optional() };
}

/** A commit tuple's trailing object of provenance. */
export function provenanceObject(z: typeof Zod) {
  return z.object(provenanceFields(z));
}

/** Lines by coding agent ({ claude: { lines, share } }), in owners and contributors; absent when no agent wrote any. */
export function agentSharesSchema(z: typeof Zod) {
  return z.record(z.string(), z.object({ lines: z.number().int(), share: z.number() })).optional();
}
