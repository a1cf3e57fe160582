/**
 * Degree-of-authorship and the truck factor (Avelino et al., "A novel approach for estimating
 * truck factors", ICPC 2016): DOA = 3.293 + 1.098·FA + 0.164·DL − 0.321·ln(1 + AC), where FA is
 * 1 for the file's creator, DL the person's changes to it and AC everyone else's. The authors of a
 * file are those with normalized DOA > 0.75 and DOA ≥ 3.293; the truck factor is how many of the
 * top authors must leave (greedily, the one authoring most files first) before more than half the
 * files have no author left.
 */
import type { FileAuthorship } from "../../store/ownership-store.ts";

export function doa(creator: boolean, own: number, others: number): number {
  return 3.293 + 1.098 * (creator ? 1 : 0) + 0.164 * own - 0.321 * Math.log(1 + others);
}

/** The people who author a file by degree-of-authorship. */
export function fileAuthors(a: FileAuthorship): string[] {
  let total = 0;
  for (const n of a.changes.values()) total += n;
  const scored = [...a.changes].map(([who, n]) => [who, doa(who === a.creator, n, total - n)] as const);
  const max = Math.max(...scored.map(([, d]) => d));
  return scored.filter(([, d]) => d / max > 0.75 && d >= 3.293).map(([who]) => who);
}

/** The truck factor of files given their authors, and the people whose leaving orphans more than half of them, in the order they were taken. */
export function truckFactor(authorsOfFiles: string[][]): { factor: number; people: string[] } {
  const files = authorsOfFiles.map((a) => new Set(a));
  const people: string[] = [];
  const orphaned = () => files.filter((f) => f.size === 0).length;
  while (files.length > 0 && orphaned() <= files.length / 2) {
    const counts = new Map<string, number>();
    for (const f of files) for (const who of f) counts.set(who, (counts.get(who) ?? 0) + 1);
    if (counts.size === 0) break;
    const top = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0];
    people.push(top);
    for (const f of files) f.delete(top);
  }
  return { factor: people.length, people };
}
