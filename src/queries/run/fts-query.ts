/**
 * Turns any text a person types into an FTS5 query that means what they meant: every word
 * must match, "a quoted phrase" is adjacent words, word* is a prefix. Everything else FTS5
 * would read as syntax (AND, OR, NOT, NEAR, -, ^, :, parentheses, stray quotes) is text.
 */
import { LoreError } from "../../errors.ts";

/** A word as the index tokenizes it: letters, digits, marks and _ (unicode61, tokenchars '_'). */
const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** An FTS5 string: the tokenizer splits it into words, which then form one phrase. */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The FTS5 query for `text`; BAD_ARGUMENT when it has no word at all. */
export function ftsQuery(text: string): string {
  const terms: string[] = [];
  const rest = text.replace(/"([^"]*)"/g, (_, inner: string) => {
    if (WORD.test(inner)) terms.push(phrase(inner));
    return " ";
  });
  for (const chunk of rest.split(/\s+/)) {
    const bare = chunk.replaceAll('"', " ");
    if (!WORD.test(bare)) continue;
    // A trailing * after a word is a prefix; anywhere else it is a separator like any punctuation.
    if (/[\p{L}\p{N}\p{M}_]\*+$/u.test(bare)) terms.push(`${phrase(bare.replace(/\*+$/, ""))} *`);
    else terms.push(phrase(bare));
  }
  if (terms.length === 0) throw new LoreError("BAD_ARGUMENT", `The search "${text}" has no words to look for; give words of letters or digits.`);
  return terms.join(" AND ");
}

/** The words of a query as the index sees them (lower-cased), for tests and highlighting. */
export function queryWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}\p{M}_]+/u).filter(Boolean);
}
