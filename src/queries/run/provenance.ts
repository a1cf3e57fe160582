/** A commit's provenance as answers carry it: `pr`, `release`, `agent`, each only where the history says so. */
import type { CommitMark } from "../../store/provenance-store.ts";
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

/**
 * The provenance of one commit (full id); `family`: familyFor's answer for the question's path;
 * `own`: what the commit's own words say (ownMarks), where the index has not stored it yet.
 */
export function provenanceOf(ctx: QueryContext, sha: string, family: string | undefined, own?: CommitMark): Provenance {
  const store = ctx.index.store.provenance;
  const marks: CommitMark | undefined = store.marksOf(sha) ?? own;
  const out: Provenance = {};
  if (marks?.pr !== undefined) out.pr = marks.pr;
  if (family !== undefined) out.release = store.releaseOf(sha, family) ?? "unreleased";
  if (marks?.agent) out.agent = marks.agent;
  return out;
}

/** The agent credited with a commit and what says so (a trailer, a line, the author, a note), for one commit's answers. */
export function agentSignalOf(ctx: QueryContext, sha: string, own?: CommitMark): string | undefined {
  return (ctx.index.store.provenance.marksOf(sha) ?? own)?.signal;
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
