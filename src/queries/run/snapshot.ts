/** How snapshot is answered: lore's store takes one, unless nothing changed. */
import { SnapshotStore } from "../../memory/store.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SNAPSHOT_ARGS, SnapshotOutput } from "../snapshot.ts";
import { shortSha } from "./common.ts";

export async function run(ctx: QueryContext, input: Input<typeof SNAPSHOT_ARGS>): Promise<SnapshotOutput> {
  const { snapshot, created } = await new SnapshotStore(ctx.index.repo).take(input.message, ctx.clock());
  return { repo: ctx.index.repo.root, id: shortSha(snapshot.id), time: snapshot.time, ...(snapshot.message ? { message: snapshot.message } : {}), files: snapshot.files, created };
}
