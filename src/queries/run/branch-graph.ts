/**
 * The commit graph under the default branch and every branch tip, read with one git log, and the
 * counts git rev-list --left-right --count gives, walked in memory: a thousand branches cost one
 * git process, not a thousand.
 */
import { git } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

export interface Graph {
  shas: string[];
  parents: number[][];
  /** Committer and author times, unix seconds. */
  ct: number[];
  at: number[];
  author: string[];
  id: Map<string, number>;
}

export async function readGraph(ctx: QueryContext, tips: string[]): Promise<Graph> {
  const input = [...new Set(tips)].join("\n") + "\n";
  const out = (await git(["log", "--stdin", "--no-show-signature", "--format=%H%x00%P%x00%ct%x00%at%x00%aN"], { ...ctx.index.git, input })).toString("utf8");
  const g: Graph = { shas: [], parents: [], ct: [], at: [], author: [], id: new Map() };
  const intern = (sha: string) => {
    let i = g.id.get(sha);
    if (i === undefined) {
      i = g.shas.length;
      g.id.set(sha, i);
      g.shas.push(sha);
      g.parents.push([]);
      g.ct.push(0);
      g.at.push(0);
      g.author.push("");
    }
    return i;
  };
  for (const line of out.split("\n")) {
    if (!line) continue;
    const [sha, ps, ct, at, author] = line.split("\0") as string[];
    const i = intern(sha!);
    g.parents[i] = ps ? ps.split(" ").map(intern) : [];
    g.ct[i] = Number(ct);
    g.at[i] = Number(at);
    g.author[i] = author!;
  }
  return g;
}

/** Marks everything reachable from `from` (stamp `mark` in `seen`), stopping at commits `stop` says; returns how many it marked. */
export function walk(g: Graph, from: number[], seen: Int32Array, mark: number, stop?: (i: number) => boolean, visit?: (i: number) => void): number {
  const stack = from.filter((i) => seen[i] !== mark && !stop?.(i));
  for (const i of stack) seen[i] = mark;
  let n = 0;
  while (stack.length) {
    const i = stack.pop()!;
    n++;
    visit?.(i);
    for (const p of g.parents[i]!) {
      if (seen[p] === mark || stop?.(p)) continue;
      seen[p] = mark;
      stack.push(p);
    }
  }
  return n;
}

export interface Apart {
  ahead: number;
  behind: number;
  /** The branch's own commits (not in the default branch), merges included. */
  own: number[];
  /** Where the branch's own commits join the default branch's history (its tip, when it is in it). */
  joins: number[];
}

/**
 * Ahead and behind of each tip against the default branch `d`, as rev-list --left-right --count
 * says them: ahead walks the tip's own commits; behind is the default's count less the commits
 * reachable from where the branch joins it, counted once per distinct join (branches share them).
 */
export function apart(g: Graph, d: number, tips: number[]): { inDefault: Uint8Array; of: Map<number, Apart> } {
  const n = g.shas.length;
  const inDefault = new Uint8Array(n);
  const seen = new Int32Array(n);
  const total = walk(g, [d], seen, 1, undefined, (i) => (inDefault[i] = 1));
  const isDefault = (i: number) => inDefault[i] === 1;
  const counts = new Map<string, number>();
  const of = new Map<number, Apart>();
  let mark = 1;
  for (const t of tips) {
    if (of.has(t)) continue;
    const own: number[] = [];
    const joins = new Set<number>();
    if (isDefault(t)) joins.add(t);
    else
      walk(g, [t], seen, ++mark, isDefault, (i) => {
        own.push(i);
        for (const p of g.parents[i]!) if (isDefault(p)) joins.add(p);
      });
    const key = [...joins].sort((a, b) => a - b).join(",");
    let common = counts.get(key);
    if (common === undefined) {
      common = walk(g, [...joins], seen, ++mark);
      counts.set(key, common);
    }
    of.set(t, { ahead: own.length, behind: total - common, own, joins: [...joins] });
  }
  return { inDefault, of };
}
