/**
 * The paths some merge wrote itself (its version differs from every parent's: a resolved
 * conflict, an evil merge): git blame gives such lines to the merge, and the index, which
 * keeps no merge diffs, cannot see them. Asked of git once per head, with one walk.
 */
import { inBackground } from "../git/priority.ts";
import { git } from "../git/run.ts";
import { fromLatin1 } from "../git/paths.ts";
import type { IndexContext } from "./context.ts";

interface Known {
  head: string;
  paths: Set<string>;
}

/** Per index file: the newest head answered, and the walk under way. */
const known = new Map<string, Known>();
const pending = new Map<string, Promise<Set<string>>>();

/**
 * `git log --merges -c --name-only` lists, for each merge, the files that differ from all of its
 * parents (the combined diff). `since`: a head already walked, whose merges need no second look;
 * when it is not an ancestor the union is larger than needed, which only costs a shortcut.
 */
async function walk(ix: IndexContext, head: string, since?: Known): Promise<Set<string>> {
  const range = since ? [head, `^${since.head}`] : [head];
  const out = await git(["log", "--merges", "-c", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--format=%x01", ...range, "--"], ix.git);
  const paths = new Set(since?.paths);
  for (const tok of Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString("latin1").split("\0")) if (tok !== "" && tok !== "\x01") paths.add(fromLatin1(tok));
  return paths;
}

/**
 * The paths merges reachable from `head` wrote themselves; null when not known yet and `wait` is
 * false (a question about one file does not pay for a walk of every merge: it asks git blame).
 */
export async function mergeWrittenPaths(ix: IndexContext, head: string, wait: boolean): Promise<Set<string> | null> {
  const key = ix.store.path;
  const have = known.get(key);
  if (have?.head === head) return have.paths;
  const flight = `${key}\0${head}`;
  let p = pending.get(flight);
  if (!p) {
    // A walk no one waits for runs at the background pass's priority.
    p = (wait ? walk(ix, head, have) : inBackground(() => walk(ix, head, have)))
      .then((paths) => {
        known.set(key, { head, paths });
        return paths;
      })
      .finally(() => pending.delete(flight));
    pending.set(flight, p);
    // Nobody waits for a walk a question started: its failure is the next asker's to see.
    if (!wait) p.catch(() => {});
  }
  return wait ? p : null;
}
