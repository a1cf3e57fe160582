/** What every indexing step needs: the repository, its store, and how to run git on it. */
import type { Repo } from "../git/repo.ts";
import type { GitOptions } from "../git/run.ts";
import type { Store } from "../store/store.ts";

export interface IndexOptions {
  /** Index at most this many commits (the newest). */
  maxCommits?: number;
}

export interface Progress {
  phase: "history" | "churn" | "blame";
  done: number;
  total?: number;
}

export interface IndexContext {
  repo: Repo;
  store: Store;
  /** cwd and environment for every git call on this repository. */
  git: GitOptions;
  options: IndexOptions;
  onProgress?: (p: Progress) => void;
  /** Where index work reports what a person should know once (the daemon's log); stderr when unset. */
  log?: (message: string) => void;
  /** Called after each batch of a first history index lands: questions waiting on it look again. */
  onHistoryBatch?: () => void;
}
