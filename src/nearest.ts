/**
 * The words nearest to one lore does not know (a mistyped question, command, flag or MCP parameter),
 * as git's "The most similar command is": fewest edits, a swap of two letters counting as one.
 */

/** Edits from a to b: insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidates nearest to word (ties all kept, in the given order); none when even the nearest is too far to be a typo. */
export function nearest(word: string, candidates: readonly string[]): string[] {
  const w = word.toLowerCase();
  if (w === "") return [];
  // A third of the word's letters may be wrong (at least one): "blam", "lmit", "histroy".
  const most = Math.max(1, Math.floor(w.length / 3));
  let best = Infinity;
  let found: string[] = [];
  for (const c of candidates) {
    const d = c.toLowerCase().startsWith(w) && w.length >= 3 ? 1 : editDistance(w, c.toLowerCase());
    if (d > most || d > best) continue;
    if (d < best) [best, found] = [d, []];
    found.push(c);
  }
  return found;
}

/** " Did you mean X?" (or "X or Y?"), or "" when nothing is near; `show` spells each candidate as the face writes it. */
export function didYouMean(word: string, candidates: readonly string[], show: (c: string) => string = (c) => c): string {
  const near = nearest(word, candidates);
  if (near.length === 0) return "";
  const said = near.slice(0, 3).map(show);
  return ` Did you mean ${said.length === 1 ? said[0] : `${said.slice(0, -1).join(", ")} or ${said.at(-1)}`}?`;
}
