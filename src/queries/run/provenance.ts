/** A commit's provenance as answers carry it: `pr`, `release`, `agent`, each only where the history says so. */
import { agentOfCommit } from "../../index/agents.ts";
import { ownPr } from "../../index/pr-number.ts";
import type { QueryContext } from "../context.ts";
import type { Provenance } from "../provenance.ts";

export type { Provenance };

/** The release family a path's answers name (the package folder that holds it; the repository's own releases else), or undefined. */
export function familyFor(ctx: QueryContext, path?: string): string | undefined {
  let best: string | undefined;
  let bestLength = -1;
  for (const [family, folder] of ctx.index.store.provenance.families()) {
    if (folder === null) continue;
    const holds = folder === "" || (path !== undefined && (path === folder || path.startsWith(folder + "/")));
    if (holds && folder.length > bestLength) [best, bestLength] = [family, folder.length];
  }
  return best;
}

/** What a commit says of itself, as indexing marks it (its own change request, its agent). */
type Marks = { pr?: number; agent?: string; signal?: string };

/** A commit the index has not stored yet (a first index under way): its author and message. */
export type Unstored = { author: string; email: string; message: string };

/** What an unstored commit's own message and author say, as a first index will mark them (a pr inherited from a merge waits for its end). */
function ownMarks(c: Unstored): Marks {
  // git's subject: the first paragraph's lines joined by spaces.
  const subject = (c.message.split(/\n\s*\n/, 1)[0] ?? "").trim().split("\n").join(" ");
  const pr = ownPr(subject, c.message);
  const credit = agentOfCommit(c.author, c.email, c.message);
  return { ...(pr !== undefined ? { pr } : {}), ...(credit ? { agent: credit.agent, signal: credit.signal } : {}) };
}

/** The provenance of one commit (full id); `family`: familyFor's answer for the question's path; `unstored`: the commit, where the index lacks it. */
export function provenanceOf(ctx: QueryContext, sha: string, family: string | undefined, unstored?: Unstored): Provenance {
  const store = ctx.index.store.provenance;
  const marks: Marks | undefined = store.marksOf(sha) ?? (unstored && ownMarks(unstored));
  const out: Provenance = {};
  if (marks?.pr !== undefined) out.pr = marks.pr;
  if (family !== undefined) out.release = store.releaseOf(sha, family) ?? "unreleased";
  if (marks?.agent) out.agent = marks.agent;
  return out;
}

/** The agent credited with a commit and what says so (a trailer, a line, the author, a note), for one commit's answers. */
export function agentSignalOf(ctx: QueryContext, sha: string, unstored?: Unstored): string | undefined {
  return (ctx.index.store.provenance.marksOf(sha) ?? (unstored && ownMarks(unstored)))?.signal;
}

/** `row` with the commit's provenance fields added after its own (none added where none is known). */
export function withProvenance<T extends object>(ctx: QueryContext, row: T, sha: string, family: string | undefined): T & Provenance {
  return { ...row, ...provenanceOf(ctx, sha, family) };
}

/** A commit tuple ([author, time, subject]) with its provenance as a last element, only when it has some. */
export function tupleWithProvenance<T extends unknown[]>(ctx: QueryContext, tuple: T, sha: string, family: string | undefined): T | [...T, Provenance] {
  const p = provenanceOf(ctx, sha, family);
  return Object.keys(p).length ? [...tuple, p] : tuple;
}
