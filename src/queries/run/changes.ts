/** How changes is answered: the work tree now, as a tree in lore's store, against a snapshot (or HEAD). */
import { changedFiles, patchOf } from "../../memory/diff.ts";
import { parseSince, SnapshotStore, type Snapshot } from "../../memory/store.ts";
import type { ChangesOutput, CHANGES_ARGS } from "../changes.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { isUnder, repoPath, shortSha } from "./common.ts";

const LISTED = 20;
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The snapshot `since` names: an id, or the newest taken at or before a time (the oldest when all are newer). */
function baseOf(store: SnapshotStore, since: string | undefined, now: Date): Snapshot | undefined {
  const list = store.list();
  if (since === undefined) return list[list.length - 1];
  const parsed = parseSince(since, now);
  if ("id" in parsed) return store.find(parsed.id);
  const t = parsed.time.getTime();
  return [...list].reverse().find((s) => Date.parse(s.time) <= t) ?? list[0];
}

/** The snapshot taken before `s`; undefined for the first. */
function before(store: SnapshotStore, s: Snapshot): Snapshot | undefined {
  const list = store.list();
  const i = list.findIndex((x) => x.id === s.id);
  return i > 0 ? list[i - 1] : undefined;
}

export async function run(ctx: QueryContext, input: Input<typeof CHANGES_ARGS>): Promise<ChangesOutput> {
  const store = new SnapshotStore(ctx.index.repo);
  const now = ctx.clock();
  const paths = (input.paths ?? []).map((p) => repoPath(ctx, p)).filter((p) => p !== "");
  // The base is chosen before the work tree is snapshotted: by default, the snapshot before this one.
  let base = baseOf(store, input.since, now);
  const taken = await store.take(undefined, now, undefined, true);
  // Asked again with nothing changed since a changes took its snapshot: that call's answer (asking does
  // not use up the changes, and a continue gets the rest of the same answer). A snapshot asked for stays the base.
  if (input.since === undefined && !taken.created && taken.snapshot.byChanges) base = before(store, taken.snapshot);
  const current = taken.snapshot.tree;
  const head = base ? undefined : await store.headTree();
  const from = base?.tree ?? head ?? EMPTY_TREE;
  const since = base ? { id: shortSha(base.id), time: base.time, ...(base.message ? { message: base.message } : {}) } : { id: head ? "HEAD" : "empty" };
  const all = await changedFiles(store, from, current, paths);
  // (Its files page by 100: pages.ts.)
  const out: ChangesOutput = { repo: ctx.index.repo.root, since, now: shortSha(taken.snapshot.id), paths, files: all, filesTotal: all.length, truncated: false };
  if (input.patch) {
    const p = await patchOf(store, from, current, paths, input.diffLines);
    out.patch = p.patch;
    out.truncated ||= p.truncated;
  }
  if (input.list) {
    const under = (c: string) => paths.length === 0 || paths.some((p) => isUnder(c, p));
    out.snapshots = store
      .list()
      .reverse()
      .filter((s) => paths.length === 0 || s.changed.some(under))
      .slice(0, LISTED)
      .map((s) => ({ id: shortSha(s.id), time: s.time, ...(s.message ? { message: s.message } : {}), files: s.files }));
  }
  return out;
}
