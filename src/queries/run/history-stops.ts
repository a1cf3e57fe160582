/**
 * What an answer says of where history stops: the one place that knows which commits are the
 * clone's boundary (git/shallow.ts) and builds `historyStops` for the boundary commits an answer reaches.
 * An imported index that holds history below a boundary commit takes that commit out of
 * `indexBoundaryOf`, for the answers read from the index.
 */
import { historyBoundary, type Boundary } from "../../git/shallow.ts";
import { GET_REST, STOPS_NAMED, type HistoryStops } from "../history-stops.ts";
import type { QueryContext } from "../context.ts";
import { shortSha } from "./common.ts";
import { importHead } from "../../index/blame-below.ts";
import { overWhole } from "../../index/shallow-order.ts";

export type { Boundary };

/** The boundary commits below which neither the clone nor lore has history. */
export function boundaryOf(ctx: QueryContext): Promise<Boundary> {
  return historyBoundary(ctx.index.repo, ctx.index.git);
}

/**
 * The boundary commits below which the index has no history either: an answer read from the
 * index (log, history, cochange, hotspots, search) goes on below a boundary commit that a whole
 * history imported into the clone holds with its parents. Blame's lines stop at every boundary
 * commit the index's blames could not follow them through (index/blame-below.ts): boundaryOf.
 */
export async function indexBoundaryOf(ctx: QueryContext): Promise<Boundary> {
  const boundary = await boundaryOf(ctx);
  const { store } = ctx.index;
  if (boundary.size === 0 || store.meta("historyWhole") !== "1") return boundary;
  return new Map([...boundary].filter(([sha]) => !store.history.holdsParents(sha)));
}

/**
 * The boundary commits blame cannot see past: an imported whole history holds the blame of every
 * file at its head (lore index build blames them all), and blame follows the lines git pins there
 * into it (index/blame-below.ts), so a line still on that commit was written by it.
 */
export async function blameBoundaryOf(ctx: QueryContext): Promise<Boundary> {
  const boundary = await boundaryOf(ctx);
  const head = importHead(ctx.index);
  if (!head || !boundary.has(head) || !overWhole(ctx.index)) return boundary;
  return new Map([...boundary].filter(([sha]) => sha !== head));
}

/** The full id of the boundary commit `sha` (full or abbreviated) names, if it is one. */
export function boundaryCommit(boundary: Boundary, sha: string | null | undefined): string | undefined {
  if (!sha || boundary.size === 0) return undefined;
  if (boundary.has(sha)) return sha;
  for (const b of boundary.keys()) if (b.startsWith(sha)) return b;
  return undefined;
}

const dayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** The field for the boundary commits reached (full or short ids; all of them when not given); undefined when none is. */
export function historyStops(boundary: Boundary, reached?: Iterable<string | null | undefined>): HistoryStops | undefined {
  if (boundary.size === 0) return undefined;
  const shas = new Set<string>();
  if (reached === undefined) for (const b of boundary.keys()) shas.add(b);
  else for (const s of reached) {
    const b = boundaryCommit(boundary, s);
    if (b) shas.add(b);
  }
  if (shas.size === 0) return undefined;
  const sorted = [...shas].sort((x, y) => boundary.get(y)!.time - boundary.get(x)!.time || (x < y ? -1 : 1));
  const at = Object.fromEntries(sorted.slice(0, STOPS_NAMED).map((s) => [shortSha(s), dayOf(boundary.get(s)!.time)]));
  return { at, ...(sorted.length > STOPS_NAMED ? { more: sorted.length - STOPS_NAMED } : {}), get: GET_REST };
}

/** `{ historyStops }` to spread into an answer, or nothing; `byBlame` for the lines of blames. */
export async function stopsField(ctx: QueryContext, reached?: Iterable<string | null | undefined>, byBlame = false): Promise<{ historyStops?: HistoryStops }> {
  const h = historyStops(await (byBlame ? blameBoundaryOf(ctx) : boundaryOf(ctx)), reached);
  return h ? { historyStops: h } : {};
}

/**
 * A walk of history (log, search): it reaches the boundary when it lists a boundary commit, or
 * when it was not cut (it went on to the clone's end) and its date limit, if any, is not after
 * every boundary commit (git's --since is the committer date).
 */
export async function walkStops(ctx: QueryContext, listed: Iterable<string> | (() => Iterable<string>), whole: boolean, since?: number): Promise<{ historyStops?: HistoryStops }> {
  const boundary = await indexBoundaryOf(ctx);
  if (boundary.size === 0) return {};
  const reached = [...(typeof listed === "function" ? listed() : listed)].filter((s) => boundaryCommit(boundary, s));
  if (whole) for (const [sha, t] of boundary) if (since === undefined || t.committed >= since) reached.push(sha);
  const h = historyStops(boundary, reached);
  return h ? { historyStops: h } : {};
}

/** Rows with `boundary: true` where the commit is the clone's boundary (git shows its changes against nothing). */
export async function markBoundary<R extends { sha: string }>(ctx: QueryContext, rows: R[], fromIndex: boolean): Promise<(R & { boundary?: true })[]> {
  const boundary = await (fromIndex ? indexBoundaryOf(ctx) : boundaryOf(ctx));
  if (boundary.size === 0) return rows;
  return rows.map((r) => (boundaryCommit(boundary, r.sha) ? { ...r, boundary: true as const } : r));
}
