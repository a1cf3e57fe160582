/**
 * What a question found so far, for an answer given at its deadline: the answer's fixed fields, the
 * items of its list in the answer's order as they are found, and how far it got in its own terms.
 * Also the deadline, continue and budget arguments every face takes (the token: continue-token.ts).
 */
import { LoreError } from "../errors.ts";
import { noun } from "../plural.ts";
import type { Offsets } from "./continue-token.ts";

/** How far a question got: commits searched (of all, back to a time), commits found (back to a time), files blamed of files asked, or lines covered. */
export type Progress =
  | { commits: number; of?: number; oldest?: string }
  | { found: number; oldest?: string }
  | { files: number; of: number }
  | { lines: number; of: number };

/** A partial answer as a reader gets it: the fields of the whole one found so far, and these. */
export interface PartialFields {
  partial: true;
  progress?: Progress;
  /** Pass back as continue to get the rest (the items after those sent). */
  continue: string;
}

export class PartialWork {
  head?: Record<string, unknown>;
  listKey?: string;
  readonly items: unknown[] = [];
  progress?: Progress;
  /** Set once the list may hold items the whole answer will not (a question that cannot keep its prefix): nothing more is added. */
  private sealed = false;

  /** The answer's fixed fields, and the name of the list whose items come in order (none: no item is sure before the end). */
  begin(head: Record<string, unknown>, listKey?: string): void {
    this.head = head;
    this.listKey = listKey;
  }

  /** An item of the list, exactly as the whole answer will have it, at the place it will have. */
  add(item: unknown): void {
    if (!this.sealed && this.listKey !== undefined) this.items.push(item);
  }

  /** No more items: the rest of the list is only sure at the end. */
  seal(): void {
    this.sealed = true;
  }

  /** Forget what an attempt found (the daemon asks again after the next batch of a first index). */
  reset(): void {
    this.head = undefined;
    this.listKey = undefined;
    this.items.length = 0;
    this.sealed = false;
  }

  report(p: Progress): void {
    this.progress = p;
  }
}

/** A progress a person reads: "searched 31,200 of 81,966 commits, back to 2015-03". */
export function progressMessage(p: Progress | undefined, question: string): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (!p) return `${question}: working…`;
  // The noun goes with the number next to it: "1 of 1 file", "1 of 3 files".
  if ("files" in p) return `${question}: blamed ${n(p.files)} of ${n(p.of)} ${noun(p.of, "file")}`;
  if ("lines" in p) return `${question}: covered ${n(p.lines)} of ${n(p.of)} ${noun(p.of, "line")}`;
  const back = p.oldest ? `, back to ${p.oldest.slice(0, 7)}` : "";
  if ("found" in p) return `${question}: ${n(p.found)} ${noun(p.found, "commit")} found so far${back}`;
  return `${question}: searched ${n(p.commits)}${p.of !== undefined ? ` of ${n(p.of)}` : ""} ${noun(p.of ?? p.commits, "commit")}${back}`;
}

/** What a call says about its own answering, apart from the question's input. */
export interface Ask {
  /** Milliseconds to the answer; undefined: no deadline. */
  deadlineMs?: number;
  /** The continue token as given (pages.ts opens it against the question). */
  token?: unknown;
  /** Where each list goes on, once the token is opened: a deadline's job gives its items from there. */
  from?: Offsets;
  /** The face's byte budget for the answer's lists (MCP's LORE_MCP_MAX_BYTES). */
  budget?: number;
  /** The client's name for the call, to ask how far it got (progress). */
  ticket?: string;
  /** When the call was read (Date.now()): the deadline counts from here, finding the repository included. */
  startedAt: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** 5000, "5000", "500ms", "5s", "1m" → milliseconds; 0, negative or unreadable is BAD_ARGUMENT. */
export function parseDeadline(v: unknown): number {
  const m = typeof v === "number" ? [String(v), String(v), "ms"] : typeof v === "string" ? /^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(v) : null;
  const ms = m ? Number(m[1]) * UNITS[m[2] ?? "ms"]! : NaN;
  if (!Number.isFinite(ms)) throw new LoreError("BAD_ARGUMENT", `--deadline takes a time such as 5s, 500ms or 5000 (milliseconds), not ${JSON.stringify(v)}.`);
  if (ms <= 0) throw new LoreError("BAD_ARGUMENT", `--deadline must be more than 0 (it was ${JSON.stringify(v)}); leave it out to wait for the whole answer.`);
  return Math.ceil(ms);
}

/** The input without deadline, continue, budget and ticket, and those read. */
export function takeAsk(raw: Record<string, unknown>): { ask: Ask; rest: Record<string, unknown> } {
  const { deadline, continue: token, budget, ticket, ...rest } = raw;
  const ask: Ask = { startedAt: Date.now() };
  if (deadline !== undefined && deadline !== null) ask.deadlineMs = parseDeadline(deadline);
  if (token !== undefined && token !== null && token !== "") ask.token = token;
  if (typeof budget === "number" && budget >= 1024) ask.budget = budget;
  if (typeof ticket === "string") ask.ticket = ticket;
  return { ask, rest };
}

/** blameMany's onDone for a question that blames many files: "blamed 120 of 4,800 files" as each is done. */
export function filesDone(partial: PartialWork | undefined, of: number): (() => void) | undefined {
  if (!partial) return undefined;
  let files = 0;
  partial.report({ files, of });
  return () => partial.report({ files: ++files, of });
}
