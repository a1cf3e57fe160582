/**
 * git log -S/-G through git when the change index cannot answer, walked in slices of the commit
 * list (git rev-list's order, which is git log's) so the search can say how far it got and hand on
 * each commit it finds as soon as its slice is searched: the same commits, in the same order.
 */
import { gitText } from "../../git/run.ts";
import type { PickaxeCommit } from "../../git/parse-pickaxe.ts";
import type { QueryContext } from "../context.ts";
import { iso } from "./common.ts";
import { pickaxe } from "./search-code.ts";

export interface Walk {
  commit: string;
  paths: string[];
  oldest: boolean;
  /** Stop once this many are found. */
  want: number;
}

/** The first slice is small, so the first progress (and the first commits) come soon; later ones grow. LORE_TEST_PICKAXE_SLICE: tests. */
const FIRST_SLICE = Number(process.env.LORE_TEST_PICKAXE_SLICE) || 500;
const MAX_SLICE = 8000;

/** The commits `git log -S TEXT [--reverse] COMMIT -- PATHS` lists, up to `want`; `found` hears of each in order. */
export async function pickaxeWalk(ctx: QueryContext, text: string, regex: boolean, walk: Walk, found: (c: PickaxeCommit) => void): Promise<PickaxeCommit[]> {
  // --timestamp: "<commit time> <sha>", for "back to 2015-03". History simplification by PATHS is rev-list's as it is log's.
  const list = await gitText(["--literal-pathspecs", "rev-list", "--timestamp", ...(walk.oldest ? ["--reverse"] : []), walk.commit, "--", ...walk.paths], ctx.index.git);
  const commits = list === "" ? [] : list.split("\n");
  const out: PickaxeCommit[] = [];
  const of = commits.length;
  ctx.partial?.report({ commits: 0, of });
  for (let i = 0, slice = FIRST_SLICE; i < of && out.length < walk.want; i += slice, slice = Math.min(MAX_SLICE, slice * 2)) {
    const part = commits.slice(i, i + slice);
    const input = part.map((l) => l.slice(l.indexOf(" ") + 1)).join("\n") + "\n";
    for (const c of await pickaxe(ctx, text, regex, { revs: ["--no-walk=unsorted", "--stdin"], paths: walk.paths, limit: walk.want - out.length, input })) {
      out.push(c);
      found(c);
    }
    const last = part[part.length - 1]!;
    // Oldest first, the walk reaches forward: "back to" says nothing then.
    ctx.partial?.report({ commits: Math.min(of, i + slice), of, ...(walk.oldest ? {} : { oldest: iso(Number(last.slice(0, last.indexOf(" ")))) }) });
  }
  return out;
}
