/** Patch-ids as git patch-id --stable gives them, of commits (against their parent) and of two commits' whole diff, remembered: a commit's patch never changes. */
import { git } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

/** Key: "sha" for a commit's own patch, "tip base" for the diff from base to tip; null: an empty patch. */
const known = new Map<string, string | null>();
const MAX_KNOWN = 400_000;

/** diff-tree prints each patch under the first id of its input line; patch-id reads that id back. */
const DIFF = ["diff-tree", "--stdin", "-p", "--root", "--no-color", "--no-ext-diff", "--no-textconv", "--full-index", "--binary"];

async function compute(ctx: QueryContext, lines: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (lines.length === 0) return out;
  const patches = await git(DIFF, { ...ctx.index.git, input: lines.join("\n") + "\n" });
  if (patches.length === 0) return out;
  const ids = (await git(["patch-id", "--stable"], { ...ctx.index.git, input: patches })).toString("utf8");
  for (const line of ids.split("\n")) {
    const [id, sha] = line.split(" ");
    if (id && sha) out.set(sha, id);
  }
  return out;
}

/** Each key's patch-id ("sha", or "tip base"), undefined for an empty patch. Pairs are asked in a run of their own: their patches print under the tip's id. */
export async function patchIds(ctx: QueryContext, keys: string[]): Promise<Map<string, string | undefined>> {
  if (known.size > MAX_KNOWN) known.clear();
  const missing = [...new Set(keys.filter((k) => !known.has(k)))];
  const single = missing.filter((k) => !k.includes(" "));
  const pairs = missing.filter((k) => k.includes(" "));
  // Two pairs with one tip would print under one id: each run holds a tip once.
  const runs: string[][] = [];
  for (const p of pairs) {
    const tip = p.slice(0, p.indexOf(" "));
    const run = runs.find((r) => !r.some((q) => q.startsWith(tip + " ")));
    if (run) run.push(p);
    else runs.push([p]);
  }
  const [own, ...paired] = await Promise.all([compute(ctx, single), ...runs.map((r) => compute(ctx, r))]);
  for (const k of single) known.set(k, own!.get(k) ?? null);
  runs.forEach((r, i) => {
    for (const k of r) known.set(k, paired[i]!.get(k.slice(0, k.indexOf(" "))) ?? null);
  });
  return new Map(keys.map((k) => [k, known.get(k) ?? undefined]));
}
