/** The open indexes of this process, one per repository root. */
import { discoverRepo } from "../git/repo.ts";
import { ensureGit } from "../git/version.ts";
import type { IndexOptions } from "./context.ts";
import { RepoIndex } from "./repo-index.ts";

const open = new Map<string, RepoIndex>();

/** The index of the repository containing `dir`, opened once per process. */
export async function indexFor(dir: string, options?: IndexOptions): Promise<RepoIndex> {
  await ensureGit();
  const repo = await discoverRepo(dir);
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
