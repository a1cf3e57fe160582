/**
 * Watches where a commit, reset or checkout leaves its mark — HEAD, packed-refs,
 * refs/heads/, refs/tags/, refs/notes/ and a linked worktree's own git dir — and calls back once things settle.
 */
import { existsSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { Repo } from "../git/repo.ts";

/** git writes HEAD, a ref and the reflog in a burst; wait for it to end, then ask git once. */
export const DEBOUNCE_MS = 60;

/** Names in a git dir that mean HEAD or a packed branch may have moved (with their .lock files, which git renames into place). */
const GIT_DIR_NAMES = /^(?:HEAD|packed-refs|ORIG_HEAD)(?:\.lock|\.new)?$/;

/** Watches `dirs` ([folder, recursive, filter]) and calls back once a burst of changes settles. */
function watchDirs(dirs: [string, boolean, RegExp | undefined][], onChange: () => void, onError: (err: unknown) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, DEBOUNCE_MS);
  };
  const watchers: FSWatcher[] = [];
  const add = (dir: string, recursive: boolean, filter?: RegExp) => {
    if (!existsSync(dir)) return;
    try {
      // fs.watch on HEAD itself fires once and never again (git replaces it by rename): watch the folder.
      const w = watch(dir, { recursive, persistent: false }, (_event, name) => {
        if (!filter || (typeof name === "string" && filter.test(name.split("/").pop()!))) fire();
      });
      w.on("error", onError);
      watchers.push(w);
    } catch (err) {
      onError(err);
    }
  };
  for (const [dir, recursive, filter] of dirs) add(dir, recursive, filter);
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}

export function watchRepo(repo: Repo, onChange: () => void, onError: (err: unknown) => void): () => void {
  const dirs: [string, boolean, RegExp | undefined][] = [[repo.gitDir, false, GIT_DIR_NAMES]];
  if (repo.commonDir !== repo.gitDir) dirs.push([repo.commonDir, false, GIT_DIR_NAMES]);
  // Tags and notes: a new release or a provenance tool's note changes answers (release, agent).
  dirs.push([join(repo.commonDir, "refs", "heads"), true, undefined], [join(repo.commonDir, "refs", "tags"), true, undefined], [join(repo.commonDir, "refs", "notes"), true, undefined], [join(repo.commonDir, "reftable"), false, undefined]);
  return watchDirs(dirs, onChange, onError);
}

/** A linked worktree's own git dir, where its HEAD moves (its branches are the common dir's, watched with the repository). */
export function watchGitDir(repo: Repo, onChange: () => void, onError: (err: unknown) => void): () => void {
  return watchDirs([[repo.gitDir, false, GIT_DIR_NAMES]], onChange, onError);
}
