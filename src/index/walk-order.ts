/**
 * git's default commit order (`git log`, `git rev-list` without ordering options), worked out
 * from the parents and committer dates the index holds: a shallow clone's git cannot walk past
 * its boundary, an imported index can.
 */

export interface WalkCommit {
  parents: string[];
  /** Committer time in seconds: git's walk orders by it. */
  commitTime: number;
}

export interface Walk {
  /** The commits reachable from the start, newest first, as git lists them. */
  order: string[];
  /** Parents named by a walked commit that `commitOf` does not know: where the known history stops. */
  missing: string[];
}

/**
 * git 2.39's revision walk (revision.c get_revision_1 / process_parents): pop the first commit of
 * a list kept sorted by committer date, where a commit joins after every commit of its date or
 * newer (commit_list_insert_by_date), and add its unseen parents in parent order. A binary heap
 * on (date descending, arrival ascending) pops exactly what that list pops.
 */
export function walkOrder(start: string, commitOf: (sha: string) => WalkCommit | undefined): Walk {
  const order: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>([start]);
  const heap: { sha: string; time: number; arrival: number }[] = [];
  let arrival = 0;
  const first = commitOf(start);
  if (!first) return { order, missing: [start] };
  push(heap, { sha: start, time: first.commitTime, arrival: arrival++ });
  while (heap.length) {
    const { sha } = pop(heap);
    order.push(sha);
    for (const p of commitOf(sha)!.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      const c = commitOf(p);
      if (!c) missing.push(p);
      else push(heap, { sha: p, time: c.commitTime, arrival: arrival++ });
    }
  }
  return { order, missing };
}

type Entry = { sha: string; time: number; arrival: number };

/** True when `a` leaves the walk before `b`: newer first, then the one that arrived first. */
function before(a: Entry, b: Entry): boolean {
  return a.time !== b.time ? a.time > b.time : a.arrival < b.arrival;
}

function push(heap: Entry[], e: Entry): void {
  heap.push(e);
  let i = heap.length - 1;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (!before(heap[i]!, heap[up]!)) break;
    [heap[i], heap[up]] = [heap[up]!, heap[i]!];
    i = up;
  }
}

function pop(heap: Entry[]): Entry {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}
