/**
 * Keeps a file's text (show REV:PATH) within the MCP size budget (the model sees the whole JSON of
 * every result), cut at a line end. Lists, a patch and git's output are cut before, where the
 * question is answered, with a continue token for the rest (src/queries/pages.ts).
 */
import { largestFitting } from "../queries/page-cut.ts";

export const DEFAULT_MAX_BYTES = 16 * 1024;

export function maxBytes(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.LORE_MCP_MAX_BYTES);
  return Number.isInteger(n) && n >= 1024 ? n : DEFAULT_MAX_BYTES;
}

/** The long text cut here, by question name: a file's text (its pages go on by startLine). A patch and git's output page where the question is answered (pages.ts). */
const TEXTS: Record<string, string[]> = { show: ["text"] };

type Answer = Record<string, unknown>;

export interface Capped {
  result: Answer;
  /** Set when the text was cut here: how many lines stayed of how many, and which field. */
  cut?: { kept: number; total: number; text: string };
}

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** The answer with its long text cut at a line end, as much of it as fits. */
function shortenText(name: string, answer: Answer, budget: number): Capped | undefined {
  const field = (TEXTS[name] ?? []).find((f) => typeof answer[f] === "string");
  if (field === undefined || size(answer) <= budget) return undefined;
  const text = answer[field] as string;
  const withText = (n: number): Answer => ({ ...answer, [field]: text.slice(0, n), truncated: true });
  // JSON escapes make the bytes of a prefix uncertain: search for the longest that fits.
  const lo = largestFitting(0, text.length, (n) => size(withText(n)) <= budget);
  // At a line end, unless that would give up more than half of what fits (one huge line).
  const nl = text.lastIndexOf("\n", lo - 1);
  const kept = nl > lo / 2 ? nl + 1 : lo;
  const lines = (s: string) => s.split("\n").length - (s.endsWith("\n") ? 1 : 0);
  return { result: withText(kept), cut: { kept: lines(text.slice(0, kept)), total: lines(text), text: field } };
}

/**
 * A file's text (show REV:PATH) may take three times the budget (48 KB by default): the agent asked
 * for the file, which git show prints whole, and Claude Code keeps a tool result of up to 50,000
 * characters in the conversation; a page of 16 KB made a 900-line file three calls.
 */
const FILE_TEXT_BUDGETS = 3;

export function capAnswer(name: string, result: unknown, given: number): Capped {
  const budget = name === "show" && typeof (result as Answer)?.text === "string" ? given * FILE_TEXT_BUDGETS : given;
  return shortenText(name, result as Answer, budget) ?? { result: result as Answer };
}
