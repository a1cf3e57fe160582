/** The open indexes of this process: one view per worktree root, the worktrees of a repository sharing one index. */
import { discoverRepo, type Repo } from "../git/repo.ts";
import { ensureGit } from "../git/version.ts";
import type { IndexOptions } from "./context.ts";
import { RepoIndex } from "./repo-index.ts";

const open = new Map<string, RepoIndex>();

/** The index of the repository containing `dir`, opened once per process. */
export async function indexFor(dir: string, options?: IndexOptions): Promise<RepoIndex> {
  await ensureGit();
  return indexOf(await discoverRepo(dir), options);
}

/** The index view of a worktree already found. */
export function indexOf(repo: Repo, options?: IndexOptions): RepoIndex {
  let ix = open.get(repo.root);
  if (!ix) {
    ix = RepoIndex.open(repo, options);
    open.set(repo.root, ix);
  }
  return ix;
}

export function closeAll(): void {
  for (const ix of open.values()) ix.close();
  open.clear();
}
