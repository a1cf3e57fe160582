/**
 * The order of history in a shallow clone whose index holds what lies below its boundary (an
 * imported index): git stops walking at the boundary, so the order is worked out from the index's
 * parents and dates, as git lists it in a whole clone.
 */
import { isShallow } from "../git/repo.ts";
import type { IndexContext } from "./context.ts";
import { walkOrder } from "./walk-order.ts";

/** A shallow clone whose index holds a whole history (imported): git sees only the clone's part of it. */
export function overWhole(ix: IndexContext): boolean {
  return ix.store.meta("historyWhole") === "1" && isShallow(ix.repo);
}

/** The commits reachable from `head`, newest first, through the index below the boundary; null where git's own walk is the whole answer. */
export function orderBelowBoundary(ix: IndexContext, head: string): string[] | null {
  if (!overWhole(ix)) return null;
  const graph = ix.store.history.commitGraph();
  return walkOrder(head, (sha) => graph.get(sha)).order;
}
