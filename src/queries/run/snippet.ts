/**
 * The snippet of a message search: the part of the message around the first match, one line of
 * at most 160 characters, every matching word marked «…». Words compare as the index compares
 * them (case and accents folded), a prefix term by its start. Cheaper than FTS5's snippet(),
 * which reads the query again per commit.
 */

const MAX = 160;
/** Words shown before the first match, for context. */
const LEAD = 3;
/** A word of a message, as the snippet marks them. */
export const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

export interface SnippetTerms {
  words: Set<string>;
  prefixes: string[];
}

export function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The words and prefixes of a query as typed (the same reading as ftsQuery). */
export function snippetTerms(query: string): SnippetTerms {
  const words = new Set<string>();
  const prefixes: string[] = [];
  for (const chunk of query.replaceAll('"', " ").split(/\s+/)) {
    const prefix = /[\p{L}\p{N}\p{M}_]\*+$/u.test(chunk);
    const tokens = chunk.match(WORD) ?? [];
    tokens.forEach((t, i) => (prefix && i === tokens.length - 1 ? prefixes.push(fold(t)) : words.add(fold(t))));
  }
  return { words, prefixes };
}

export function snippet(message: string, terms: SnippetTerms): string {
  const text = message.replace(/\s+/g, " ").trim();
  const hits: { start: number; end: number }[] = [];
  const starts: number[] = [];
  for (const m of text.matchAll(WORD)) {
    starts.push(m.index);
    const f = fold(m[0]);
    if (terms.words.has(f) || terms.prefixes.some((p) => f.startsWith(p))) hits.push({ start: m.index, end: m.index + m[0].length });
  }
  if (hits.length === 0) return text.length <= MAX ? text : text.slice(0, MAX - 1).trimEnd() + "…";
  const firstToken = starts.indexOf(hits[0]!.start);
  let from = starts[Math.max(0, firstToken - LEAD)]!;
  // Keep the first match inside the window even when the words before it are long.
  if (hits[0]!.end - from > MAX - 2) from = hits[0]!.start;
  const lead = from > 0 ? "…" : "";
  let out = lead;
  let pos = from;
  for (const h of hits) {
    if (h.start < from) continue;
    const piece = text.slice(pos, h.start) + "«" + text.slice(h.start, h.end) + "»";
    if (out.length + piece.length > MAX - 1) break;
    out += piece;
    pos = h.end;
  }
  const room = MAX - 1 - out.length;
  const rest = text.slice(pos);
  if (rest.length <= room + 1) return out + rest;
  return out + rest.slice(0, room).trimEnd() + "…";
}
