/**
 * Keeps a file's text (show REV:PATH) within a page (TEXT_PAGE), cut at a line end. Lists, a
 * patch and git's output are cut before, where the question is answered, with a continue token
 * for the rest (src/queries/pages.ts).
 */
import { textPrefix } from "../queries/page-cut.ts";

export const DEFAULT_MAX_BYTES = 16 * 1024;

/**
 * The most characters of text a page of an answer has: VS Code writes a tool result's text over
 * 8,192 characters to a file and gives the model a pointer, and Gemini CLI, opencode and Zed read
 * only the text. A page whose text is longer is asked again with a smaller byte budget, for both copies.
 */
export const TEXT_PAGE = 8192;
/** The smallest byte budget a page is asked with. */
export const MIN_BUDGET = 1024;

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

/** A file's text (show REV:PATH) is its page's text: at most TEXT_PAGE characters with its header and hint, and the budget. */
export function capAnswer(name: string, result: unknown, given: number): Capped {
  return (name === "show" && shortenText(result as Answer, Math.min(given, TEXT_PAGE - 256))) || { result: result as Answer };
}
