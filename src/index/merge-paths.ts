/** What each merge changed against each of its parents (paths only), asked of git once per merge and kept. */
import { git } from "../git/run.ts";
import { fromLatin1 } from "../git/paths.ts";
import type { IndexContext } from "./context.ts";

export interface MergeRow {
  id: number;
  sha: string;
  parents: string;
}

/**
 * One `git diff-tree --stdin` for all the merges given: a line "PARENT MERGE" per parent; with
 * --always git prints PARENT before each pair's paths even when the pair has none, so the pairs stay in step.
 */
export async function fillMergePaths(ix: IndexContext, merges: MergeRow[]): Promise<void> {
  const pairs = merges.flatMap((m) => m.parents.split(" ").map((p, i) => ({ merge: m, parent: p, index: i })));
  if (pairs.length === 0) return;
  const out = await git(["diff-tree", "-r", "-z", "--name-only", "--always", "--no-renames", "--stdin"], { ...ix.git, input: pairs.map((p) => `${p.parent} ${p.merge.sha}\n`).join("") });
  const tokens = Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString("latin1").split("\0");
  const paths: string[][] = pairs.map(() => []);
  let k = -1;
  for (const t of tokens) {
    if (t === "") continue;
    if (k + 1 < pairs.length && t.length === 40 && t === pairs[k + 1]!.parent) k++;
    else if (k >= 0) paths[k]!.push(fromLatin1(t));
  }
  if (k !== pairs.length - 1) throw new Error(`git diff-tree answered ${k + 1} of ${pairs.length} merge parents`);
  ix.store.transaction(() => {
    for (const m of merges) {
      const mine = pairs.map((p, i) => ({ p, i })).filter(({ p }) => p.merge === m);
      ix.store.log.saveMergePaths(m.id, mine.map(({ i }) => paths[i]!.map((path) => ix.store.history.ensurePathId(path))));
    }
  });
}
