/**
 * Marks commits with what their history says: the change request their own message names or the
 * merge that brought them in, and the coding agent credited. Runs over commits not marked yet.
 */
import type { CommitMark } from "../store/provenance-store.ts";
import type { Store } from "../store/store.ts";
import { agentOfCommit } from "./agents.ts";
import { ownPr } from "./pr-number.ts";
import { branchCommits, generations, reachesAny } from "./merge-branch.ts";

const BATCH = 2000;

/**
 * Marks one stored commit with what its own message and author say (its change request, its agent);
 * returns the change request. A first index marks each batch so, as it stores it: answers given
 * before it ends carry them (a change request inherited from a merge waits for markCommits).
 */
export function markOwn(store: Store, id: number, c: OwnWords): number | undefined {
  const own = ownMarks(c);
  if (own.pr !== undefined || own.agent !== undefined) store.provenance.mark(id, own);
  return own.pr;
}

/** A commit's author and words: what its own marks are read from. */
export type OwnWords = { author: string; email: string; subject: string; message: string };

/** What a commit's own message and author say: its change request and the agent credited, with what says so. */
export function ownMarks(c: OwnWords): CommitMark {
  const pr = ownPr(c.subject, c.message);
  const credit = agentOfCommit(c.author, c.email, c.message);
  return { ...(pr !== undefined ? { pr } : {}), ...(credit ? { agent: credit.agent, signal: credit.signal } : {}) };
}

/**
 * Marks the commits stored since the last pass; returns how many were read. `shallow`: the ids the
 * clone's shallow file lists (git shows them without parents): history is cut there.
 */
export function markCommits(store: Store, shallow: readonly string[] = []): number {
  let after = Number(store.meta("provenanceThrough") ?? 0);
  const merges: number[] = [];
  let read = 0;
  for (;;) {
    const batch = store.provenance.commitsAfter(after, BATCH);
    if (batch.length === 0) break;
    store.transaction(() => {
      for (const c of batch) {
        const pr = markOwn(store, c.id, c);
        if (pr !== undefined && c.parents.includes(" ")) merges.push(c.id);
      }
      after = batch[batch.length - 1]!.id;
      store.setMeta("provenanceThrough", String(after));
    });
    read += batch.length;
  }
  if (merges.length) inheritFromMerges(store, merges, shallow);
  return read;
}

/**
 * A commit without a change request of its own gets the one of the first merge (oldest in the
 * graph) whose branch brought it in: the commits reachable from the merge's other parents and not
 * from its first (git rev-list M^1..M^2).
 * Where history is cut (a shallow clone's boundary, a capped index), a merge whose ancestry reaches
 * the cut cannot tell what its first side held: the commits it seems to bring in get no pr from it,
 * nor from any later merge (absent, never guessed).
 */
function inheritFromMerges(store: Store, mergeIds: number[], shallow: readonly string[]): void {
  const rows = store.provenance.graph();
  const idOf = new Map(rows.map((r) => [r.sha, r.id]));
  const parents = new Map(rows.map((r) => [r.id, r.parents ? r.parents.split(" ").map((p) => idOf.get(p) ?? -1).filter((p) => p >= 0) : []]));
  const cut = new Set(rows.filter((r) => r.parents && r.parents.split(" ").some((p) => !idOf.has(p))).map((r) => r.id));
  for (const sha of shallow) {
    const id = idOf.get(sha);
    if (id !== undefined && parents.get(id)!.length === 0) cut.add(id);
  }
  const gen = generations(parents);
  const uncertain = reachesAny(parents, gen, cut);
  const prs = store.provenance.prMerges(mergeIds);
  const has = store.provenance.withPr();
  const order = [...prs.keys()].sort((a, b) => gen.get(a)! - gen.get(b)! || a - b);
  store.transaction(() => {
    for (const m of order) {
      const [first, ...others] = parents.get(m)!;
      if (first === undefined || others.length === 0) continue;
      for (const c of branchCommits(parents, gen, first, others)) {
        if (has.has(c)) continue;
        has.add(c);
        if (!uncertain.has(m)) store.provenance.inheritPr(c, prs.get(m)!);
      }
    }
  });
}
