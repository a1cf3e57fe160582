/** The tree at a commit: stored for the indexed head, asked of git for any other. */
import { git } from "../git/run.ts";
import { parseLsTree } from "../git/parse-tree.ts";
import type { TreeEntry } from "../git/records.ts";
import type { IndexContext } from "./context.ts";

/**
 * Trees asked of git lately, by commit and paths: a commit's tree never changes, so a question
 * in a linked worktree (its HEAD is not the stored tree's) starts no git process the second time.
 */
const asked = new Map<string, readonly TreeEntry[]>();
let askedEntries = 0;
/** What the memo holds at most, in entries (a monorepo's whole tree is left out). */
const MAX_ENTRIES = 200_000;

/** git's arguments for the tree of `commit` (the paths under `paths`, or all). */
export const lsTreeArgs = (commit: string, paths: string[] = []) => ["ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", ...paths];

export async function lsTree(ix: IndexContext, commit: string, paths: string[] = []): Promise<TreeEntry[]> {
  const key = `${commit}\0${paths.join("\0")}`;
  const known = asked.get(key);
  if (known) return [...known];
  // The whole tree of the commit known already (a linked worktree's HEAD): the paths' entries are in it.
  const whole = paths.length > 0 ? asked.get(`${commit}\0`) : undefined;
  if (whole) {
    const wanted = paths.map((p) => p.replace(/\/+$/, ""));
    return whole.filter((e) => wanted.some((p) => p === "" || e.path === p || e.path.startsWith(p + "/")));
  }
  const out = await git(lsTreeArgs(commit, paths), ix.git);
  const entries = parseLsTree(out);
  if (/^[0-9a-f]{40,64}$/.test(commit) && entries.length <= MAX_ENTRIES / 4) {
    while (askedEntries + entries.length > MAX_ENTRIES && asked.size > 0) {
      const [oldest, list] = asked.entries().next().value!;
      asked.delete(oldest);
      askedEntries -= list.length;
    }
    asked.set(key, entries);
    askedEntries += entries.length;
  }
  return [...entries];
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
