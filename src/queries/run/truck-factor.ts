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

/**
 * The truck factor of files given their authors (people by number, `names` of each), and the
 * people whose leaving orphans more than half of them, in the order they were taken.
 */
export function truckFactor(authorsOfFiles: readonly (readonly number[])[], names: readonly string[]): { factor: number; people: string[] } {
  // Counted once and kept up to date as people leave (a person's file count does not change when another leaves).
  const left = authorsOfFiles.map((a) => a.length);
  const filesOf = new Map<number, number[]>();
  authorsOfFiles.forEach((authors, i) => {
    for (const who of authors) {
      const files = filesOf.get(who);
      if (files) files.push(i);
      else filesOf.set(who, [i]);
    }
  });
  let orphaned = left.filter((n) => n === 0).length;
  const people: string[] = [];
  while (left.length > 0 && orphaned <= left.length / 2 && filesOf.size > 0) {
    let top: [number, number[]] | undefined;
    for (const e of filesOf) {
      const more = top === undefined || e[1].length > top[1].length || (e[1].length === top[1].length && names[e[0]]! < names[top[0]]!);
      if (more) top = e;
    }
    const [who, files] = top!;
    people.push(names[who]!);
    filesOf.delete(who);
    for (const i of files) if (--left[i]! === 0) orphaned++;
  }
  return { factor: people.length, people };
}
