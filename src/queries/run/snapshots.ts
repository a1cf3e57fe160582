/** How snapshots is answered: lore's list, newest first, those that changed PATH when one is named. */
import { SnapshotStore } from "../../memory/store.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SNAPSHOTS_ARGS, SnapshotsOutput } from "../snapshots.ts";
import { repoPath, shortSha } from "./common.ts";

export async function run(ctx: QueryContext, input: Input<typeof SNAPSHOTS_ARGS>): Promise<SnapshotsOutput> {
  const store = new SnapshotStore(ctx.index.repo);
  const path = repoPath(ctx, input.path);
  const all = store.list().reverse().filter((s) => path === "" || s.changed.some((c) => c === path || c.startsWith(path + "/")));
  const snapshots = all.slice(0, input.limit).map((s) => ({ id: shortSha(s.id), time: s.time, ...(s.message ? { message: s.message } : {}), files: s.files }));
  return { repo: ctx.index.repo.root, ...(path ? { path } : {}), snapshots, total: all.length, truncated: all.length > snapshots.length };
}
