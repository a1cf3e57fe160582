/**
 * Whether a branch's changes already are in the default branch although its tip is not: each of its
 * commits has a patch-id equal to a commit's there (rebased or cherry-picked, as git cherry marks
 * them "-"), or its whole diff since it left has one commit's patch-id there (squash-merged).
 */
import type { MergedKind } from "../branches.ts";
import type { QueryContext } from "../context.ts";
import { patchIds } from "./patch-ids.ts";
import type { Apart, Graph } from "./branch-graph.ts";

/** A copy is committed after the original was written; this much clock skew is allowed. */
const SKEW = 86_400;

export interface Found {
  kind: MergedKind;
  /** The default branch's commit that holds it. */
  by: number;
}

/** Which of `branches` (tip → how far apart; none of them in the default branch) are merged by copy; `base` gives a branch's merge base when it joins the default branch more than once. */
export async function mergedByCopy(ctx: QueryContext, g: Graph, inDefault: Uint8Array, branches: Map<number, Apart>, base: (tip: number, a: Apart) => Promise<number | undefined>): Promise<Map<number, Found>> {
  const found = new Map<number, Found>();
  const single = (i: number) => g.parents[i]!.length <= 1;
  let since = Infinity;
  for (const a of branches.values()) for (const i of a.own) if (single(i)) since = Math.min(since, g.at[i]!);
  if (since === Infinity) return found;
  // The default branch's commits that can be copies: single-parent, committed after the oldest commit they could copy was written.
  const upstream: number[] = [];
  for (let i = 0; i < g.shas.length; i++) if (inDefault[i] === 1 && single(i) && g.ct[i]! >= since - SKEW) upstream.push(i);
  const bases = new Map<number, number>();
  for (const [tip, a] of branches) {
    const b = a.joins.length === 1 ? a.joins[0] : await base(tip, a);
    if (b !== undefined) bases.set(tip, b);
  }
  const own = [...branches.values()].flatMap((a) => a.own.filter(single));
  const pairKey = (tip: number) => `${g.shas[tip]} ${g.shas[bases.get(tip)!]}`;
  const ids = await patchIds(ctx, [...upstream, ...own].map((i) => g.shas[i]!).concat([...bases.keys()].map(pairKey)));
  const copies = new Map<string, number[]>();
  for (const u of upstream) {
    const id = ids.get(g.shas[u]!);
    if (id) copies.set(id, [...(copies.get(id) ?? []), u]);
  }
  const seen = new Int32Array(g.shas.length);
  let mark = 0;
  // A copy counts only where the branch does not have it already (git cherry compares with base..default): reachable from where it joins, newer ones only.
  const before = (u: number, a: Apart) => {
    const m = ++mark;
    const stack = a.joins.filter((j) => g.ct[j]! >= g.ct[u]! - SKEW);
    for (const j of stack) seen[j] = m;
    while (stack.length) {
      const i = stack.pop()!;
      if (i === u) return true;
      for (const p of g.parents[i]!) if (seen[p] !== m && g.ct[p]! >= g.ct[u]! - SKEW) (seen[p] = m), stack.push(p);
    }
    return false;
  };
  const copyOf = (id: string | undefined, a: Apart) => (id === undefined ? undefined : copies.get(id)?.find((u) => !before(u, a)));
  for (const [tip, a] of branches) {
    const mine = a.own.filter(single);
    const each = mine.map((i) => copyOf(ids.get(g.shas[i]!), a));
    if (mine.length > 0 && each.every((u) => u !== undefined)) {
      found.set(tip, { kind: "rebase", by: each.reduce((x, y) => (g.ct[y!]! > g.ct[x!]! ? y : x))! });
      continue;
    }
    const squash = bases.has(tip) ? copyOf(ids.get(pairKey(tip)), a) : undefined;
    if (squash !== undefined) found.set(tip, { kind: "squash", by: squash });
  }
  return found;
}
