/** What a question runs with: the repository's index and a clock. */
import type { RepoIndex } from "../index/repo-index.ts";
import type { PartialWork } from "./partial.ts";

export interface QueryContext {
  index: RepoIndex;
  clock: () => Date;
  /** Blame workers to run at once for questions that blame many files. */
  blameWorkers: number;
  /** Set when the daemon answers: who it is, for status. */
  daemon?: { pid: number; version: string; uptimeS: number };
  /** Set when the answer may be wanted before it is whole (a deadline): what was found so far goes here. */
  partial?: PartialWork;
}
