/**
 * How suspects are ranked, SZZ refined as the research found it helps: the weight of the asked lines
 * each commit wrote (a deleted line 1, a neighbour of an insertion less) with diminishing returns, a
 * commit that removed what the fix adds back first, mass and cosmetic commits last, and commits made
 * since the last release before the fix before older ones. Chosen on express, held out on hono
 * (`npm run bench:suspects`).
 */
import type { Facts } from "./suspect-facts.ts";
import type { Blamed } from "./suspect-blame.ts";

/** The weights; the benchmark tunes them (docs/benchmarks.md). */
export const RANK = { near: 0.3, power: 0.3, restore: 3, release: 0, noisy: 0.5, mass: 30 };

/** A subject that says the commit changed form, not behaviour. */
const COSMETIC = /\b(format|formatting|prettier|lint|eslint|style|whitespace|indent|reformat|rename[sd]?|move[sd]?|typo|license|copyright|bump|release|refactor)\b/i;

export function isNoisy(f: Facts | undefined): boolean {
  return !!f && (f.files > RANK.mass || COSMETIC.test(f.subject));
}

export interface Evidence {
  blamed: Blamed;
  /** Commits that removed a line the fix adds back: sha → the lines' text. */
  restores: Map<string, string[]>;
  facts: Map<string, Facts>;
  release?: number;
}

export interface Ranked {
  sha: string;
  score: number;
}

export function rank(e: Evidence): Ranked[] {
  const shas = new Set([...e.blamed.keys(), ...e.restores.keys()]);
  const out: Ranked[] = [];
  for (const sha of shas) {
    const b = e.blamed.get(sha);
    const f = e.facts.get(sha);
    let score = (b ? (b.weight + RANK.near * b.near) ** RANK.power : 0) + (e.restores.has(sha) ? RANK.restore : 0);
    if (isNoisy(f)) score *= RANK.noisy;
    if (e.release !== undefined && f && f.time > e.release) score *= 1 + RANK.release;
    out.push({ sha, score });
  }
  // Equal scores: the newer commit first (the bug is more often recent).
  return out.sort((x, y) => y.score - x.score || (e.facts.get(y.sha)?.time ?? 0) - (e.facts.get(x.sha)?.time ?? 0));
}

/** The one line that says why a commit is a suspect. */
export function whyOf(e: Evidence, sha: string, what: string): string {
  const parts: string[] = [];
  const restored = e.restores.get(sha);
  if (restored) parts.push(`removed \`${restored[0]!.slice(0, 60)}\`${restored.length > 1 ? ` (and ${restored.length - 1} more)` : ""}, which the fix adds back`);
  const b = e.blamed.get(sha);
  if (b?.count) parts.push(`wrote ${b.count === 1 ? "1 line" : `${b.count} lines`} ${what}`);
  if (b?.near) parts.push(`wrote ${b.near === 1 ? "the line" : `${b.near} lines`} next to where the fix adds`);
  const f = e.facts.get(sha);
  if (isNoisy(f)) parts.push(f!.files > RANK.mass ? `a mass change of ${f!.files} files` : "its subject says it changed form, not behaviour");
  return parts.join("; ");
}
