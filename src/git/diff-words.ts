/** The names a file's patch adds or removes: identifiers whose count differs between its added and removed lines, lowercased, keywords left out, for naming what a change is about. */
import { KEYWORDS } from "./keywords.ts";

/** Words kept per file at most: a rewritten file says what it is about in its first few hundred. */
const MAX_WORDS = 400;
const WORD = /[A-Za-z][A-Za-z0-9_]{2,40}/g;

/**
 * `lines`: the patch as patchLines gives it. A hunk header's function context (`@@ … @@ export
 * async function f(`) is a line the change did not touch, and a word on both sides of a replaced
 * line (`export` in an edited declaration) is not what it changed: neither speaks.
 */
export function diffWords(lines: readonly string[]): string[] {
  // Per word: added minus removed occurrences, in the order first seen.
  const net = new Map<string, number>();
  for (const line of lines) {
    const c = line[0];
    if ((c !== "+" && c !== "-") || line.startsWith("+++ ") || line.startsWith("--- ")) continue;
    const step = c === "+" ? 1 : -1;
    for (const m of line.slice(1).matchAll(WORD)) {
      const w = m[0].toLowerCase();
      if (!KEYWORDS.has(w)) net.set(w, (net.get(w) ?? 0) + step);
    }
  }
  const out: string[] = [];
  for (const [w, n] of net) if (n !== 0 && out.push(w) >= MAX_WORDS) break;
  return out;
}
