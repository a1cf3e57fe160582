/** Indexes what a commit off the indexed history (another branch) adds: its commits, and their provenance. */
import type { IndexContext } from "./context.ts";
import { streamCommits } from "./history.ts";
import { markCommits } from "./commit-marks.ts";
import { shallowList } from "../git/shallow.ts";

/** Stores the commits reachable from `commit` and not from `head`, then marks their pr and agent as the indexed ones are. */
export async function indexOffHistory(ctx: IndexContext, commit: string, head: string): Promise<void> {
  await streamCommits(ctx, [commit, "--not", head], (batch) => {
    ctx.store.transaction(() => {
      for (const c of batch) ctx.store.history.insertCommit(c);
    });
  });
  markCommits(ctx.store, shallowList(ctx.repo));
}
