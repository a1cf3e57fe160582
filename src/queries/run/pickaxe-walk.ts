/**
 * git log -S/-G through git when the change index cannot answer and the answer may be wanted
 * early (a deadline): the commit list (git rev-list's order, which is git log's) is read as git
 * prints it and searched in slices as it comes, so the search can say how far it got and hand on
 * each commit it finds as soon as its slice is searched: the same commits, in the same order.
 */
import { LoreError } from "../../errors.ts";
import { gitStream } from "../../git/run.ts";
import type { PickaxeCommit } from "../../git/parse-pickaxe.ts";
import type { QueryContext } from "../context.ts";
import { iso } from "./common.ts";
import { pickaxe } from "./pickaxe-git.ts";
import type { LeftOut } from "./pickaxe-damage.ts";

export interface Walk {
  commit: string;
  paths: string[];
  oldest: boolean;
  /** Stop once this many are found. */
  want: number;
  /** How many commits the walk has, when the index knows (HEAD's whole history, no paths). */
  of?: number;
}

/** The first slice is small, so the first progress (and the first commits) come soon; later ones grow. LORE_TEST_PICKAXE_SLICE: tests. */
const FIRST_SLICE = Number(process.env.LORE_TEST_PICKAXE_SLICE) || 500;
const MAX_SLICE = 16_000;

/** Thrown into rev-list's stream to end it once the search has found enough. */
const ENOUGH = new LoreError("INTERNAL", "enough commits found");

/** The commits `git log -S TEXT [--reverse] COMMIT -- PATHS` lists, up to `want`; `found` hears of each in order. */
export async function pickaxeWalk(ctx: QueryContext, text: string, regex: boolean, walk: Walk, found: (c: PickaxeCommit) => void, left?: LeftOut): Promise<PickaxeCommit[]> {
  // "<commit time> <sha>" lines, for "back to 2015-03". History simplification by PATHS is rev-list's as it is log's.
  // Oldest first needs the whole list before its first line (git's --reverse does the same).
  const lines: string[] = [];
  let rest = "";
  let listed = false;
  let stop = false;
  let wake: (() => void) | undefined;
  const args = ["--literal-pathspecs", "rev-list", "--timestamp", ...(walk.oldest ? ["--reverse"] : []), walk.commit, "--", ...walk.paths];
  const listing = gitStream(args, ctx.index.git, (chunk) => {
    if (stop) return Promise.reject(ENOUGH);
    const text = rest + Buffer.from(chunk).toString("latin1");
    const cut = text.lastIndexOf("\n");
    if (cut >= 0) {
      lines.push(...text.slice(0, cut).split("\n"));
      wake?.();
    }
    rest = text.slice(cut + 1);
  }).then(
    () => {
      if (rest) lines.push(rest);
    },
    (err) => {
      if (err !== ENOUGH && !stop) throw err;
    },
  );
  const ended = listing.finally(() => {
    listed = true;
    wake?.();
  });
  ended.catch(() => {});
  /** Resolves once `n` lines are listed, or the list ended; a failed listing throws. */
  const haveLines = async (n: number) => {
    while (lines.length < n && !listed) await new Promise<void>((r) => (wake = r));
    if (listed) await listing;
  };
  const out: PickaxeCommit[] = [];
  try {
    ctx.partial?.report({ commits: 0, ...(walk.of !== undefined ? { of: walk.of } : {}) });
    for (let i = 0, slice = FIRST_SLICE; out.length < walk.want; i += slice, slice = Math.min(MAX_SLICE, slice * 2)) {
      await haveLines(i + slice);
      const part = lines.slice(i, i + slice);
      if (part.length === 0) break;
      const input = part.map((l) => l.slice(l.indexOf(" ") + 1)).join("\n") + "\n";
      for (const c of await pickaxe(ctx, text, regex, { revs: ["--no-walk=unsorted", "--stdin"], paths: walk.paths, limit: walk.want - out.length, input }, left)) {
        out.push(c);
        found(c);
      }
      const last = part[part.length - 1]!;
      const of = listed ? lines.length : walk.of;
      // Oldest first, the walk reaches forward: "back to" says nothing then.
      ctx.partial?.report({ commits: i + part.length, ...(of !== undefined ? { of } : {}), ...(walk.oldest ? {} : { oldest: iso(Number(last.slice(0, last.indexOf(" ")))) }) });
    }
    return out;
  } finally {
    stop = true;
    await ended.catch(() => {});
  }
}
