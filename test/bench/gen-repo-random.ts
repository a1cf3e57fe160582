/** The generator's seeded random numbers: mulberry32 and a weighted pick, the same draws on every engine. */

/** mulberry32: tiny, fast, and only integer ops and one division, so every engine draws the same numbers. */
export class Random {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    const s = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** An index drawn with probability proportional to its weight. */
export function weighted(r: Random, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let u = r.int(total);
  for (let i = 0; i < weights.length; i++) if ((u -= weights[i]!) < 0) return i;
  return 0;
}
