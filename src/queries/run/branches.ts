/** How branches is answered: one for-each-ref, one git log of the graph, patch-ids of the commits that may be copies, the cleanup commands. */
import { basename, dirname } from "node:path";
import { gitMaybe } from "../../git/run.ts";
import type { Branch, BRANCHES_ARGS, BranchesOutput } from "../branches.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { agentOfMessage, agentOfName, messages } from "./branch-agent.ts";
import { cleanup } from "./branch-commands.ts";
import { apart, readGraph, type Apart } from "./branch-graph.ts";
import { mergedByCopy } from "./branch-merged.ts";
import { readRefs } from "./branch-refs.ts";
import { iso, shortSha } from "./common.ts";

const DAY = 86_400;

export async function run(ctx: QueryContext, input: Input<typeof BRANCHES_ARGS>): Promise<BranchesOutput> {
  const { branches: refs, defaultRef } = await readRefs(ctx);
  const def = refs.find((b) => b.ref === defaultRef)!;
  const g = await readGraph(ctx, [def.tip, ...refs.map((b) => b.tip)]);
  const d = g.id.get(def.tip)!;
  const tips = refs.map((b) => g.id.get(b.tip)!);
  const { inDefault, of } = apart(g, d, tips);
  const unmerged = new Map<number, Apart>([...of].filter(([t]) => inDefault[t] !== 1));
  const mergeBase = async (tip: number) => {
    const out = await gitMaybe(["merge-base", def.tip, g.shas[tip]!], ctx.index.git);
    return out ? g.id.get(out.toString("utf8").trim()) : undefined;
  };
  const [copies, texts] = await Promise.all([
    mergedByCopy(ctx, g, inDefault, unmerged, mergeBase),
    // An agent's trailer is on the branch's own commits (or its tip, once merged).
    messages(ctx, refs.filter((b) => !agentOfName(b.name, b.remote)).flatMap((b) => { const t = g.id.get(b.tip)!; const own = of.get(t)!.own; return (own.length ? own : [t]).map((i) => g.shas[i]!); })),
  ]);
  const now = ctx.clock().getTime() / 1000;
  const all: Branch[] = [];
  for (const b of refs) {
    if (b.ref === defaultRef) continue;
    const t = g.id.get(b.tip)!;
    const a = of.get(t)!;
    const copy = copies.get(t);
    const merged = inDefault[t] === 1 ? "merge" : copy?.kind;
    const own = a.own.length ? a.own : [t];
    const agent = agentOfName(b.name, b.remote) ?? own.map((i) => agentOfMessage(texts.get(g.shas[i]!) ?? "", g.author[i]!)).find((x) => x !== undefined);
    all.push({
      name: b.name,
      ...(b.remote ? { remote: true as const } : {}),
      sha: shortSha(b.tip),
      time: iso(g.at[t]!),
      author: g.author[t]!,
      ahead: a.ahead,
      behind: a.behind,
      ...(merged ? { merged } : {}),
      ...(copy ? { by: shortSha(g.shas[copy.by]!) } : {}),
      ...(b.worktree ? { worktree: b.worktree } : {}),
      ...(b.upstream ? { upstream: b.upstream } : {}),
      ...(b.gone ? { gone: true as const } : {}),
      ...(agent ? { agent } : {}),
    });
  }
  const kept = all.filter((b) => (!input.merged || b.merged) && (!input.agent || b.agent) && (input.stale === undefined || now - Date.parse(b.time) / 1000 >= input.stale * DAY));
  // Merged first (they can go), then the stalest; git's order among equals.
  kept.sort((x, y) => Number(!x.merged) - Number(!y.merged) || (x.time < y.time ? -1 : x.time > y.time ? 1 : 0));
  const { commonDir } = ctx.index.repo;
  const mainWorktree = basename(commonDir) === ".git" ? dirname(commonDir) : undefined;
  const keep = new Set([def.remote ? def.name.slice(def.name.indexOf("/") + 1) : def.name, "main", "master"]);
  const answer: BranchesOutput = { repo: ctx.index.repo.root, default: def.name, rev: def.tip, branches: kept, commands: cleanup(kept, keep, mainWorktree), truncated: false };
  if (all.length === 0) answer.note = `${def.name} is the only branch.`;
  else if (kept.length === 0) answer.note = `None of the ${all.length} branches is ${[input.merged ? "merged" : "", input.agent ? "made by an agent" : "", input.stale !== undefined ? `${input.stale} days old` : ""].filter(Boolean).join(", ")}.`;
  return answer;
}
