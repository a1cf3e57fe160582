/** A copy of the work tree's index kept refreshed in lore's home, so review's git diff need not re-hash the racily clean files of a fresh checkout. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitMaybe } from "../../git/run.ts";
import { workTreeStateDir } from "../../index/index-file.ts";
import type { QueryContext } from "../context.ts";

/** One refresh at a time per work tree (the daemon may answer two reviews at once). */
const refreshing = new Map<string, Promise<string | undefined>>();

/**
 * The path of a copy of the index with git's stat data refreshed, or undefined to use the
 * repository's own. A fresh clone's index is racily clean (its files are as new as it, to the
 * second): every git diff against the work tree reads and hashes each tracked file again until
 * some git command rewrites the index, which lore never does. The copy holds the same entries
 * (git only rewrites stat data on refresh), so a diff against it says what one against the index
 * says; it is made again whenever the index file changes. A split index is left alone: its
 * shared part lives in the repository and a write could touch it.
 */
export async function refreshedIndex(ctx: QueryContext): Promise<string | undefined> {
  const { root, gitDir, commonDir } = ctx.index.repo;
  const real = join(gitDir, "index");
  let stamp: string;
  let mtimeSec: number;
  try {
    const st = statSync(real, { bigint: true });
    stamp = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    mtimeSec = Number(st.mtimeNs / 1_000_000_000n);
    // A linked worktree's shared index may sit in either folder.
    for (const d of new Set([gitDir, commonDir])) if (readdirSync(d).some((n) => n.startsWith("sharedindex."))) return undefined;
  } catch {
    return undefined;
  }
  const dir = join(workTreeStateDir(root), "review-index");
  const copy = join(dir, "index");
  const stampFile = join(dir, "stamp");
  try {
    if (existsSync(copy) && readFileSync(stampFile, "utf8") === stamp) return copy;
  } catch {}
  const running = refreshing.get(root);
  if (running) return running;
  const made = (async () => {
    try {
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, `index.${process.pid}.${Date.now()}`);
      copyFileSync(real, tmp);
      // git calls an entry racily clean when it is not older than the index file, and then reads
      // the file: the copy keeps the index's time (to the second, so never newer) or a same-size
      // edit within the second the entry was staged would pass as clean.
      utimesSync(tmp, mtimeSec, mtimeSec);
      // Exits non-zero while files differ from the index; whatever it leaves is a whole index with the same entries.
      await gitMaybe(["update-index", "-q", "--ignore-submodules", "--unmerged", "--refresh"], { ...ctx.index.git, env: { ...ctx.index.git.env, GIT_INDEX_FILE: tmp } }).catch(() => null);
      rmSync(`${tmp}.lock`, { force: true });
      renameSync(tmp, copy);
      writeFileSync(stampFile, stamp);
      return copy;
    } catch {
      return undefined;
    } finally {
      refreshing.delete(root);
    }
  })();
  refreshing.set(root, made);
  return made;
}
