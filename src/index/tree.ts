/** The tree at a commit: stored for the indexed head, asked of git for any other. */
import { git } from "../git/run.ts";
import { parseLsTree } from "../git/parse-tree.ts";
import type { TreeEntry } from "../git/records.ts";
import type { IndexContext } from "./context.ts";

export async function lsTree(ix: IndexContext, commit: string, paths: string[] = []): Promise<TreeEntry[]> {
  const out = await git(["ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", ...paths], ix.git);
  return parseLsTree(out);
}

export async function updateTree(ix: IndexContext, head: string): Promise<boolean> {
  if (ix.store.meta("treeHead") === head) return false;
  const entries = await lsTree(ix, head);
  ix.store.transaction(() => {
    ix.store.tree.replace(entries);
    ix.store.setMeta("treeHead", head);
  });
  return true;
}
