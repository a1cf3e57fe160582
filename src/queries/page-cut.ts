/**
 * Cutting a list of an answer to a window of its items (blame's commits table kept to the hunks
 * left), and to a size in bytes: the largest prefix that fits, at least one item, so an answer is
 * never empty just for being big.
 */
import { withBlameAgents } from "./blame-agents.ts";

type Answer = Record<string, unknown>;

/** The long texts an answer may carry (a patch, a file's text, git's output): the face cuts them after the lists. */
export const TEXTS = ["patch", "text", "stdout"];

/** The largest n in [lo, hi] for which `fits(n)` holds, `fits` holding for smaller n whenever it holds for n (lo when none fits). */
export function largestFitting(lo: number, hi: number, fits: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * How many of `text`'s first characters to keep where `fits(n)` says whether n of them fit: the most
 * that fit (at least `least`), at a line end unless that gives up more than half of them (one huge
 * line), never between the two halves of a character beyond the 16 bits of one.
 */
export function textPrefix(text: string, fits: (n: number) => boolean, least = 0): number {
  if (fits(text.length)) return text.length;
  const lo = Math.max(Math.min(least, text.length), largestFitting(0, text.length, fits));
  const nl = text.lastIndexOf("\n", lo - 1);
  if (nl + 1 > lo / 2) return nl + 1;
  const high = text.charCodeAt(lo - 1);
  return high >= 0xd800 && high <= 0xdbff ? lo - 1 : lo;
}

/**
 * The answer's JSON size, its long texts left out (the lists get the budget first), and compare's
 * commits without their own files (the branch's files are its list; the model's copy drops theirs).
 */
export function listBytes(answer: Answer): number {
  const rest = { ...answer };
  for (const t of TEXTS) delete rest[t];
  if (Array.isArray(rest.files) && Array.isArray(rest.commits))
    rest.commits = (rest.commits as Answer[]).map((c) => {
      const { files: _f, filesTotal: _t, ...own } = c;
      return own;
    });
  return Buffer.byteLength(JSON.stringify(rest));
}

/** The answer with items [from, to) of its list (and, for blame, only the commits they name and the agents' lines of those hunks). */
export function windowOf(name: string, answer: Answer, list: string, from: number, to: number): Answer {
  const items = (answer[list] as unknown[]).slice(from, to);
  const out: Answer = { ...answer, [list]: items };
  if (name === "blame" && answer.commits && typeof answer.commits === "object") {
    const shas = new Set((items as [number, number, string][]).map((h) => h[2]));
    out.commits = Object.fromEntries(Object.entries(answer.commits as Answer).filter(([sha]) => shas.has(sha)));
    const boundary = (answer.boundary as string[] | undefined)?.filter((sha) => shas.has(sha));
    if (boundary?.length) out.boundary = boundary;
    else delete out.boundary;
    return withBlameAgents(out);
  }
  return out;
}

/** How many of the list's first items fit `budget` (at least 1, at most all). */
export function fitting(name: string, answer: Answer, list: string, budget: number): number {
  const total = (answer[list] as unknown[]).length;
  return largestFitting(Math.min(1, total), total, (n) => listBytes(windowOf(name, answer, list, 0, n)) <= budget);
}

/** A single commit message longer than the whole budget (intent) is shortened rather than dropped. */
export function shortenMessage(answer: Answer, budget: number): Answer {
  const commits = answer.commits as { message?: string }[];
  const message = commits[0]?.message;
  if (typeof message !== "string") return answer;
  const withMessage = (text: string) => ({ ...answer, commits: [{ ...commits[0], message: text }, ...commits.slice(1)] });
  // Characters are not bytes (UTF-8, JSON escapes): search the longest prefix whose JSON fits.
  const kept = largestFitting(0, message.length, (n) => listBytes(withMessage(message.slice(0, n) + "…")) <= budget);
  return withMessage(message.slice(0, kept) + "…");
}
