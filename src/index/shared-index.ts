/**
 * What the worktrees of one repository share in a process: one index file (keyed by the common
 * git dir), one turn-taking chain for its updates, its time-travel scopes, and the HEAD it follows.
 */
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readHeadCommit } from "../git/head-file.ts";
import type { Repo } from "../git/repo.ts";
import { Store } from "../store/store.ts";
import { indexPath, workTreeStateDir } from "./index-file.ts";

/**
 * The main worktree of the repository `repo` belongs to, found from files alone: the common dir's
 * parent when the common dir is a `.git` folder with a work tree; otherwise (a bare repository, a
 * separate git dir) the common dir itself, whose HEAD git reads as any repository's.
 */
export function mainWorktree(repo: Repo): Repo {
  if (repo.gitDir === repo.commonDir) return repo;
  const { commonDir } = repo;
  let bare = false;
  try {
    bare = /^\s*bare\s*=\s*(true|yes|on|1)\s*$/im.test(readFileSync(join(commonDir, "config"), "utf8"));
  } catch {}
  const root = !bare && commonDir.endsWith("/.git") ? dirname(commonDir) : commonDir;
  return { root, gitDir: commonDir, commonDir };
}

export class SharedIndex {
  /** The repository whose HEAD the stored history and tree follow (every other worktree is a time-travel scope). */
  readonly primary: Repo;
  /** Runs index work one step at a time: two updates never interleave, whichever worktree asked. */
  chain: Promise<unknown> = Promise.resolve();
  running = 0;
  /** Time-travel scopes (temp tables of the one connection), by commit: shared, since their names are. */
  readonly scopes = new Map<string, string>();
  /** The last commit that touched each path, as of `touchHead`. */
  readonly touches = new Map<string, string | undefined>();
  touchHead: string | undefined;
  growthWaiters: (() => void)[] = [];
  /** lore's commit-graph (GIT_OBJECT_DIRECTORY…), once written: every worktree's git calls use it. */
  gitEnv: Record<string, string> | undefined;
  /** The worktree views open on it: the store closes with the last. */
  users = 0;

  constructor(
    readonly store: Store,
    asker: Repo,
  ) {
    const main = mainWorktree(asker);
    // A bare repository whose HEAD names no commit (its worktrees are on other branches): follow the asker's.
    this.primary = main.root === main.commonDir && readHeadCommit(main) === null ? asker : main;
  }

  static open(repo: Repo): SharedIndex {
    const path = indexPath(repo.commonDir);
    const main = mainWorktree(repo);
    const former = main.root !== main.commonDir ? main.root : undefined;
    if (former !== undefined) adoptFormerIndex(join(workTreeStateDir(former), "index.db"), path);
    return new SharedIndex(Store.open(path, repo.commonDir, former), repo);
  }
}

/**
 * An older lore kept the index under the main worktree's root (its snapshots stay there): moved,
 * not rebuilt, the first time this one opens the repository. Its -wal moves with it (committed rows may be there).
 */
function adoptFormerIndex(former: string, path: string): void {
  if (existsSync(path) || !existsSync(former)) return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    for (const suffix of ["-wal", "-shm", ""]) if (existsSync(former + suffix)) renameSync(former + suffix, path + suffix);
  } catch {
    // Left where it was: the index is built again.
  }
}

const open = new Map<string, SharedIndex>();

/** The shared index of `repo`'s repository, opened once per process. */
export function sharedIndexOf(repo: Repo): SharedIndex {
  const key = resolve(repo.commonDir);
  let shared = open.get(key);
  if (!shared) {
    shared = SharedIndex.open(repo);
    open.set(key, shared);
  }
  shared.users++;
  return shared;
}

/** One view let go of it; the last closes the store. */
export function releaseSharedIndex(shared: SharedIndex): void {
  if (--shared.users > 0) return;
  for (const [key, s] of open) if (s === shared) open.delete(key);
  shared.store.close();
}
