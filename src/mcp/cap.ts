/**
 * Keeps an answer within the MCP size budget: the model sees the whole JSON of every
 * result, so a list that would flood its context is cut, marked `truncated`, and
 * the text says how to ask for the rest.
 */

export const DEFAULT_MAX_BYTES = 16 * 1024;

export function maxBytes(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.LORE_MCP_MAX_BYTES);
  return Number.isInteger(n) && n >= 1024 ? n : DEFAULT_MAX_BYTES;
}

/** The list each question can cut, by question name. */
const LISTS: Record<string, string> = {
  blame: "hunks",
  history: "commits",
  intent: "commits",
  cochange: "results",
  hotspots: "results",
  contributors: "results",
  owners: "results",
  log: "commits",
  compare: "commits",
  review: "files",
  search: "results",
};

/** The long text each question can cut at a line (a patch, a file's text, git's output), by question name. */
const TEXTS: Record<string, string[]> = { show: ["patch", "text"], compare: ["patch"], git: ["stdout"], changes: ["patch"] };

type Answer = Record<string, unknown>;

export interface Capped {
  result: Answer;
  /** Set when the list was cut here: how many items stayed of how many. */
  cut?: { kept: number; total: number; text?: string };
}

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** The answer with only the first `n` items of its list (and, for blame, only the commits they name). */
function keep(name: string, result: Answer, list: string, n: number): Answer {
  const items = (result[list] as unknown[]).slice(0, n);
  const out: Answer = { ...result, [list]: items, truncated: true };
  if (name === "blame") {
    const all = result.commits as Record<string, unknown>;
    const shas = new Set((items as [number, number, string][]).map((h) => h[2]));
    out.commits = Object.fromEntries(Object.entries(all).filter(([sha]) => shas.has(sha)));
    const boundary = (result.boundary as string[] | undefined)?.filter((sha) => shas.has(sha));
    if (boundary?.length) out.boundary = boundary;
    else delete out.boundary;
  }
  return out;
}

/** A single commit message longer than the whole budget is shortened rather than dropped. */
function shortenMessages(result: Answer, budget: number): Answer {
  const commits = result.commits as { message?: string }[];
  const withMessage = (text: string) => ({ ...result, commits: [{ ...commits[0], message: text }, ...commits.slice(1)] });
  const message = commits[0]?.message;
  if (typeof message !== "string") return result;
  // Characters are not bytes (UTF-8, JSON escapes): search the longest prefix whose JSON fits.
  let lo = 0;
  let hi = message.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(withMessage(message.slice(0, mid) + "…")) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return withMessage(message.slice(0, lo) + "…");
}

/** The answer with its long text cut at a line end, as much of it as fits (the list is cut after, if still needed). */
function shortenText(name: string, answer: Answer, budget: number): Capped | undefined {
  const field = (TEXTS[name] ?? []).find((f) => typeof answer[f] === "string");
  if (field === undefined || size(answer) <= budget) return undefined;
  const text = answer[field] as string;
  const withText = (n: number): Answer => ({ ...answer, [field]: text.slice(0, n), truncated: true });
  // JSON escapes make the bytes of a prefix uncertain: search for the longest that fits.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(withText(mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
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
  const text = shortenText(name, result as Answer, budget);
  // Questions with no list to cut after it (show, git, changes) take the cut text as it is.
  if (text && (name !== "compare" || size(text.result) <= budget)) return text;
  const answer = result as Answer;
  const list = LISTS[name];
  if (!list || !Array.isArray(answer[list]) || size(answer) <= budget) return { result: answer };
  const total = (answer[list] as unknown[]).length;
  // The largest prefix that fits; at least one item, so an answer is never empty just for being big.
  let lo = 1;
  let hi = total;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(keep(name, answer, list, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  let capped = keep(name, answer, list, lo);
  if (name === "intent" && size(capped) > budget) capped = shortenMessages(capped, budget);
  else if (lo === total) return { result: answer }; // one item that cannot be cut: sent whole
  return { result: capped, cut: { kept: lo, total } };
}
