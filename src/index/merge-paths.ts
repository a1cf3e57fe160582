/** What each merge changed against its parents (paths only), asked of git once per merge and parent, and kept. */
import { git } from "../git/run.ts";
import { fromLatin1 } from "../git/paths.ts";
import type { IndexContext } from "./context.ts";

/** Merges per git diff-tree (its output is held whole). */
const BATCH = 2000;

export interface MergeRow {
  id: number;
  sha: string;
  parents: string;
}

/**
 * Makes sure each merge has its changed paths stored against its first `parents` parents (all
 * when undefined). One `git diff-tree --stdin` for all that lack some: a line "PARENT MERGE" per
 * pair; with --always git prints PARENT before each pair's paths even when there are none.
 */
export async function fillMergePaths(ix: IndexContext, merges: MergeRow[], parents?: number): Promise<void> {
  const done = ix.store.log.mergesDiffed(merges.map((m) => m.id));
  const todo = merges
    .map((m) => {
      const all = m.parents.split(" ");
      const want = Math.min(parents ?? all.length, all.length);
      return { merge: m, from: done.get(m.id) ?? 0, want, all };
    })
    .filter((t) => t.from < t.want);
  const pairs = todo.flatMap((t) => t.all.slice(t.from, t.want).map((parent) => ({ t, parent })));
  if (pairs.length === 0) return;
  const out = await git(["diff-tree", "-r", "-z", "--name-only", "--always", "--no-renames", "--stdin"], { ...ix.git, input: pairs.map((p) => `${p.parent} ${p.t.merge.sha}\n`).join("") });
  const tokens = Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString("latin1").split("\0");
  const paths: string[][] = pairs.map(() => []);
  let k = -1;
  for (const tok of tokens) {
    if (tok === "") continue;
    if (k + 1 < pairs.length && tok.length === 40 && tok === pairs[k + 1]!.parent) k++;
    else if (k >= 0) paths[k]!.push(fromLatin1(tok));
  }
  if (k !== pairs.length - 1) throw new Error(`git diff-tree answered ${k + 1} of ${pairs.length} merge parents`);
  ix.store.transaction(() => {
    let i = 0;
    for (const t of todo) {
      const mine = paths.slice(i, i + (t.want - t.from));
      i += t.want - t.from;
      ix.store.log.saveMergePaths(t.merge.id, t.from, mine.map((list) => list.map((path) => ix.store.history.ensurePathId(path))), t.want);
    }
  });
}

/**
 * What every merge of the indexed history changed against each parent: what a walk of a file's
 * log asks of git, asked now (lore index build), so an index carried to a shallow clone has it
 * for the merges below the clone's boundary, where git cannot say.
 */
export async function fillAllMergePaths(ix: IndexContext): Promise<number> {
  // Found by SQL: after an import, the few new merges, without every commit of history read into objects.
  const merges = ix.store.log.mergesOfReach();
  const lacking = merges.filter((m) => m.diffed < m.parents.split(" ").length);
  for (let at = 0; at < lacking.length; at += BATCH) await fillMergePaths(ix, lacking.slice(at, at + BATCH));
  return merges.length;
}
