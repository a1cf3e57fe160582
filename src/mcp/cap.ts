/**
 * Keeps a file's text (show REV:PATH) within the MCP size budget (the model sees the whole JSON of
 * every result), cut at a line end. Lists, a patch and git's output are cut before, where the
 * question is answered, with a continue token for the rest (src/queries/pages.ts).
 */
import { textPrefix } from "../queries/page-cut.ts";

export const DEFAULT_MAX_BYTES = 16 * 1024;

export function maxBytes(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.LORE_MCP_MAX_BYTES);
  return Number.isInteger(n) && n >= 1024 ? n : DEFAULT_MAX_BYTES;
}

type Answer = Record<string, unknown>;

export interface Capped {
  result: Answer;
  /** Set when the file's text was cut here: how many of its lines stayed. */
  cut?: { kept: number };
}

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** The answer with the file's text cut at a line end, as much of it as fits. */
function shortenText(answer: Answer, budget: number): Capped | undefined {
  const text = answer.text;
  if (typeof text !== "string" || size(answer) <= budget) return undefined;
  const withText = (n: number): Answer => ({ ...answer, text: text.slice(0, n), truncated: true });
  // (JSON escapes make the bytes of a prefix uncertain: textPrefix searches for the longest that fits.)
  const part = text.slice(0, textPrefix(text, (n) => size(withText(n)) <= budget));
  return { result: withText(part.length), cut: { kept: part.split("\n").length - (part.endsWith("\n") ? 1 : 0) } };
}

/**
 * A file's text (show REV:PATH) may take three times the budget (48 KB by default): the agent asked
 * for the file, which git show prints whole, and Claude Code keeps a tool result of up to 50,000
 * characters in the conversation; a page of 16 KB made a 900-line file three calls.
 */
const FILE_TEXT_BUDGETS = 3;

export function capAnswer(name: string, result: unknown, given: number): Capped {
  return (name === "show" && shortenText(result as Answer, given * FILE_TEXT_BUDGETS)) || { result: result as Answer };
}
