/** The commits a merge brought in (reachable from its other parents, not from its first), walked in generation order as git paints. Pure. */

/** Each commit's generation: 1 + the largest of its parents' (a root's is 1). */
export function generations(parents: Map<number, number[]>): Map<number, number> {
  const gen = new Map<number, number>();
  for (const start of parents.keys()) {
    if (gen.has(start)) continue;
    const stack = [start];
    while (stack.length) {
      const c = stack[stack.length - 1]!;
      if (gen.has(c)) {
        stack.pop();
        continue;
      }
      const ps = parents.get(c) ?? [];
      const todo = ps.filter((p) => !gen.has(p));
      if (todo.length) {
        stack.push(...todo);
        continue;
      }
      gen.set(c, 1 + Math.max(0, ...ps.map((p) => gen.get(p)!)));
      stack.pop();
    }
  }
  return gen;
}

/** The commits from which one of `targets` is reachable (themselves included): parents first, in generation order. */
export function reachesAny(parents: Map<number, number[]>, gen: Map<number, number>, targets: Set<number>): Set<number> {
  const out = new Set<number>();
  if (targets.size === 0) return out;
  for (const c of [...parents.keys()].sort((a, b) => gen.get(a)! - gen.get(b)!)) if (targets.has(c) || parents.get(c)!.some((p) => out.has(p))) out.add(c);
  return out;
}

const FIRST = 1;
const OTHER = 2;

/** The commits reachable from `others` and not from `first` (git rev-list first..others), in no particular order. */
export function branchCommits(parents: Map<number, number[]>, gen: Map<number, number>, first: number, others: number[]): number[] {
  const flags = new Map<number, number>();
  // A max-heap on generation: a commit is settled once every commit above it is, as in git's paint.
  const heap: number[] = [];
  const push = (c: number, f: number) => {
    const had = flags.get(c);
    flags.set(c, (had ?? 0) | f);
    if (had !== undefined) return;
    heap.push(c);
    let i = heap.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (gen.get(heap[up]!)! >= gen.get(heap[i]!)!) break;
      [heap[up], heap[i]] = [heap[i]!, heap[up]!];
      i = up;
    }
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && gen.get(heap[l]!)! > gen.get(heap[m]!)!) m = l;
        if (r < heap.length && gen.get(heap[r]!)! > gen.get(heap[m]!)!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  push(first, FIRST);
  for (const o of others) push(o, OTHER);
  let onlyOther = others.filter((o) => o !== first).length;
  const out: number[] = [];
  while (heap.length && onlyOther > 0) {
    const c = pop();
    const f = flags.get(c)!;
    if (f === OTHER) {
      onlyOther--;
      out.push(c);
    }
    for (const p of parents.get(c) ?? []) {
      const before = flags.get(p);
      push(p, f);
      const after = flags.get(p)!;
      if (after === OTHER && before === undefined) onlyOther++;
      else if (before === OTHER && after !== OTHER) onlyOther--;
    }
  }
  return out;
}
