/** The text of a partial answer (given at its deadline): what was found so far, how far it got, how to get the rest. */
import { progressMessage, type Progress } from "../../queries/partial.ts";
import type { Style } from "../style.ts";
import type { Words } from "./words.ts";

interface PartialAnswer {
  partial?: true;
  progress?: Progress;
  continue?: string;
  rev?: string;
}

/** The line a partial or cut answer adds, in the face's words for going on. */
export function partialLines(name: string, result: unknown, style: Style, words: Words): string[] {
  const r = (result ?? {}) as PartialAnswer;
  const out: string[] = [];
  if (r.partial) out.push(style.dim(`partial: ${progressMessage(r.progress, name).replace(`${name}: `, "")}; ${words.rest(r.continue!)} for the rest`));
  else if (r.continue) out.push(style.dim(`… more: ${words.rest(r.continue)} for the rest`));
  return out;
}

/**
 * True when a partial answer has nothing to show yet: none of its question's fields (nothing was sure
 * before the end), or an empty list (which the renderer would read as "nothing found"): only the partial lines say anything.
 */
export function bare(result: unknown): boolean {
  const r = (result ?? {}) as PartialAnswer & Record<string, unknown>;
  if (r.partial !== true) return false;
  return r.rev === undefined || Object.values(r).some((v) => Array.isArray(v) && v.length === 0);
}
