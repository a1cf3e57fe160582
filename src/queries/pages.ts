/**
 * Answers in pages: every list an answer may cut (at its page size, at the face's byte budget, at
 * `limit`, or at a deadline) is continued by `continue`, with the items after those sent, in the
 * same order, nothing repeated. The token (continue-token.ts) says where each list goes on and is
 * sealed to the question as asked, so a page never mixes two states of the repository.
 */
import { createHash } from "node:crypto";
import { mintToken, openToken, type Bound, type Offsets } from "./continue-token.ts";
import { fitting, listBytes, shortenMessage, TEXTS, textPrefix, windowOf } from "./page-cut.ts";

type Answer = Record<string, unknown>;

/**
 * A list an answer pages: `limit`, the list is cut by the question's limit (the rest comes from asking
 * for more); `size`, a page holds at most this many on every face; `model`, at most this many when a
 * byte budget is given (MCP: the model reads a few, the rest on asking); `unbudgeted`, at most this
 * many when none is (the CLI's --json: with a budget, the bytes decide).
 */
interface ListSpec {
  key: string;
  limit?: true;
  size?: number;
  model?: number;
  unbudgeted?: number;
}

export const PAGED: Record<string, ListSpec[]> = {
  blame: [{ key: "hunks" }],
  history: [{ key: "commits", limit: true }],
  intent: [{ key: "commits" }],
  cochange: [{ key: "results", limit: true }],
  hotspots: [{ key: "results", limit: true }],
  contributors: [{ key: "results", limit: true, model: 3 }],
  owners: [{ key: "results", limit: true }],
  log: [{ key: "commits", limit: true }],
  // compare's files page on their own: a 30-commit branch may touch hundreds of files.
  compare: [{ key: "commits", limit: true }, { key: "files", unbudgeted: 100 }],
  show: [{ key: "files", size: 50 }],
  // review reads the replaced lines of its first page of files; the rest come with their counts.
  review: [{ key: "files", size: 50 }],
  search: [{ key: "results", limit: true }],
  changes: [{ key: "files", size: 100 }],
  // The model reads the branches to clean up first (merged, stalest), and their commands.
  branches: [{ key: "branches", model: 30 }, { key: "commands", model: 30 }],
  // The five likeliest; continue gives the rest.
  suspects: [{ key: "suspects", size: 5 }],
  // A list of none: its text pages (TEXT_PAGED).
  git: [],
};

/**
 * The long text a question pages when the byte budget cuts it (a patch, git's output), after its
 * lists, by characters (at a line end where one is near). A file's text (show REV:PATH) pages by
 * its lines instead: startLine.
 */
export const TEXT_PAGED: Record<string, string> = { show: "patch", compare: "patch", git: "stdout", changes: "patch" };

/** A continue token's offsets: each list's, then the text's. */
const slotsOf = (name: string) => (PAGED[name]?.length ?? 0) + (name in TEXT_PAGED ? 1 : 0);

/** What a page adds to the answer beside its text: truncated, continue, after. */
const PAGE_FIELDS_BYTES = 80;
/** A page's text has at least this many characters (or all that is left): a page always gets on. */
const MIN_TEXT = 256;

/** The limit a question answers with (search's default depends on its mode). */
function limitOf(name: string, input: Answer): number | undefined {
  if (typeof input.limit === "number") return input.limit;
  return name === "search" ? (input.code ? 5 : 20) : undefined;
}

/** The input that holds the items after `from`: a list cut at limit asks for those sent and limit more. */
export function widened(name: string, input: Answer, from: Offsets | undefined): Answer {
  const i = PAGED[name]?.findIndex((s) => s.limit) ?? -1;
  const sent = i >= 0 ? from?.[i] : undefined;
  const limit = limitOf(name, input);
  if (sent === undefined || sent === null || limit === undefined || sent < limit) return input;
  return { ...input, limit: sent + limit };
}

/** Where the list named `key` goes on (a deadline's partial answer gives its items from there). */
export function offsetOf(name: string, key: string | undefined, from: Offsets | undefined): number {
  const i = PAGED[name]?.findIndex((s) => s.key === key) ?? -1;
  return (i >= 0 ? from?.[i] : 0) ?? 0;
}

/** Opens a call's continue token against the question as asked now (BAD_CONTINUE when it was not made for it). */
export function openAsk(bound: Bound, token: unknown): Offsets {
  return openToken(token, bound, slotsOf(bound.name));
}

/** A partial answer (a deadline): its list within the budget, and a token for the items after those sent. */
function partialPage(name: string, a: Answer, from: Offsets | undefined, budget: number | undefined, mint: (o: Offsets) => string): Answer {
  const specs = PAGED[name] ?? [];
  const i = specs.findIndex((s) => Array.isArray(a[s.key]));
  let out = a;
  if (i >= 0 && budget !== undefined && listBytes(out) > budget) out = windowOf(name, out, specs[i]!.key, 0, fitting(name, out, specs[i]!.key, budget));
  // A blame's part says the commits and the agents' lines of the hunks it sends, no others.
  else if (i >= 0 && name === "blame") out = windowOf(name, out, specs[i]!.key, 0, (out[specs[i]!.key] as unknown[]).length);
  // The other lists go on where the token said (a list done stays done).
  const offsets = specs.map((s, j) => (j === i ? offsetOf(name, s.key, from) + (out[s.key] as unknown[]).length : from && j < from.length ? from[j]! : 0));
  // Its text, not yet sent, from where it was to go on.
  if (name in TEXT_PAGED) offsets.push(from ? from[specs.length]! : 0);
  return { ...out, continue: mint(offsets) };
}

/**
 * The page of a whole answer that starts at `from` (the first when undefined): each list from its
 * offset, at most its page size, then cut to `budget` bytes (the last list first); `continue` where
 * any list has more, and `after` on a continued page (its fixed fields are the first page's).
 */
export function pageOf(name: string, answer: unknown, from: Offsets | undefined, budget: number | undefined, mint: (o: Offsets) => string, partial?: PartialTokens): unknown {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const a = answer as Answer;
  if (a.partial === true) return partialPage(name, a, from, budget, partial?.mint ?? mint);
  const specs = PAGED[name];
  if (!specs) return answer;
  let out: Answer = { ...a };
  const bases = specs.map((_, i) => from?.[i] ?? 0);
  const more = specs.map((s, i) => {
    const items = out[s.key];
    if (!Array.isArray(items)) return false;
    if (from?.[i] === null) {
      out[s.key] = [];
      return false;
    }
    const end = Math.min(items.length, bases[i]! + (s.size ?? (budget !== undefined ? s.model : s.unbudgeted) ?? Infinity));
    out = windowOf(name, out, s.key, bases[i]!, end);
    // A page that came back empty ends the list (the query's truncated may be its patch's), unless
    // it goes on from a deadline's part that had reached the limit: the next page is the next limit's.
    return end < items.length || (s.limit === true && a.truncated === true && (end > bases[i]! || partial?.resumed === true));
  });
  // The text goes on where the token said; a continued page carries no other text (the first page had it).
  const field = TEXT_PAGED[name];
  const textFrom = field !== undefined && typeof out[field] === "string" ? (from ? from[specs.length] : 0) : null;
  if (from) for (const t of TEXTS) if (t !== field || textFrom === null) delete out[t];
  if (budget !== undefined) {
    for (let i = specs.length - 1; i >= 0 && listBytes(out) > budget; i--) {
      const items = out[specs[i]!.key];
      if (!Array.isArray(items) || items.length === 0) continue;
      const n = fitting(name, out, specs[i]!.key, budget);
      if (n < items.length) {
        out = windowOf(name, out, specs[i]!.key, 0, n);
        more[i] = true;
      }
    }
    if (name === "intent" && listBytes(out) > budget) out = shortenMessage(out, budget);
  }
  let textNext: number | null = null;
  if (textFrom !== null && textFrom !== undefined) {
    const text = (out[field!] as string).slice(textFrom);
    // What fits the budget with the rest of the page and the fields it adds.
    const fits = (n: number) => Buffer.byteLength(JSON.stringify({ ...out, [field!]: text.slice(0, n) })) + PAGE_FIELDS_BYTES <= budget!;
    const kept = budget === undefined ? text.length : textPrefix(text, fits, MIN_TEXT);
    out[field!] = text.slice(0, kept);
    if (kept < text.length) textNext = textFrom + kept;
  }
  const offsets = specs.map((s, i) => (more[i] ? bases[i]! + (out[s.key] as unknown[]).length : null));
  // A page of a blame says the lines it holds (lines 1-604 of 2905), not the range asked.
  if (name === "blame" && (more[0] || bases[0]! > 0)) out = { ...out, range: spanOf(out.hunks as [number, number][]) ?? out.range };
  if (name in TEXT_PAGED) offsets.push(textNext);
  if (bases.some((b) => b > 0)) out.after = Math.max(...bases);
  // A page of text alone says how many of its characters came before.
  else if (textFrom) out.after = textFrom;
  if (offsets.some((o) => o !== null)) return { ...out, truncated: true, continue: mint(offsets) };
  // The query's truncated was its limit list's, which has ended (owners' without rows is its authors').
  return a.truncated === true && specs.some((s) => s.limit && Array.isArray(a[s.key])) ? { ...out, truncated: false } : out;
}

/** The lines from a page's first hunk to its last. */
function spanOf(hunks: [number, number][]): [number, number] | undefined {
  return hunks.length ? [hunks[0]![0], hunks[hunks.length - 1]![1]] : undefined;
}

/**
 * A deadline's part is continued with a token of its own (sealed apart): its rest is the items the
 * question as asked holds after those sent, while a token of a list cut at its limit asks for the
 * next limit's worth. The two may name the same place (a part that had sent `limit` items).
 */
interface PartialTokens {
  mint: (o: Offsets) => string;
  /** The call goes on from a part's token. */
  resumed: boolean;
}

/** What a call asks of its pages: the token of the page before, and the face's byte budget (MCP's). */
export interface PageAsk {
  token?: unknown;
  budget?: number;
}

/**
 * The page a call asks for: `answer` is given the input that holds it (widened) and the offsets (for a
 * deadline's partial answer), and answers the question whole, or partial at a deadline.
 */
export async function answerInPages(bound: Bound, ask: PageAsk, answer: (widen: (input: Answer) => Answer, from?: Offsets) => Promise<unknown>, byContent = false): Promise<unknown> {
  if (byContent) {
    // An edit moves neither HEAD nor a stamp: the token is bound to the whole answer it pages.
    const whole = await answer((input) => input);
    const sealed = { ...bound, state: `${bound.state}|${createHash("sha256").update(JSON.stringify(whole) ?? "").digest("hex")}` };
    const from = ask.token !== undefined ? openAsk(sealed, ask.token) : undefined;
    return pageOf(bound.name, whole, from, ask.budget, (o) => mintToken(sealed, o));
  }
  // A part's token is sealed apart and says where the call it continues began (the input it widened).
  const partBound = { ...bound, state: `${bound.state}|part` };
  const limited = PAGED[bound.name]?.findIndex((s) => s.limit) ?? -1;
  let from: Offsets | undefined;
  let start: Offsets | undefined;
  let resumed = false;
  if (ask.token !== undefined) {
    try {
      from = start = openAsk(bound, ask.token);
    } catch (err) {
      try {
        from = openToken(ask.token, partBound, slotsOf(bound.name) + 1);
        const began = from.pop()!;
        start = from.map((o, j) => (j === limited ? began : o));
        resumed = true;
      } catch {
        throw err;
      }
    }
  }
  const whole = await answer((input) => widened(bound.name, input, start), from);
  const began = limited >= 0 ? (start?.[limited] ?? 0) : 0;
  return pageOf(bound.name, whole, from, ask.budget, (o) => mintToken(bound, o), { mint: (o) => mintToken(partBound, [...o, began]), resumed });
}
