/** Answers a question in this process: finds the repository, freshens its index, runs the question. */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { LoreError } from "../errors.ts";
import { discoverRepo } from "../git/repo.ts";
import { ensureGit } from "../git/version.ts";
import { indexOf } from "../index/indexes.ts";
import type { IndexOptions } from "../index/context.ts";
import type { QueryContext } from "./context.ts";
import { validateInput } from "./define.ts";
import { findQuery } from "./index.ts";
import { askedRepo, worktreeFor } from "./worktree-input.ts";
import { takeAsk, type PartialWork } from "./partial.ts";
import { answerInPages } from "./pages.ts";
import { aboutWorkTree, boundFor } from "./page-bound.ts";

export interface AnswerOptions {
  /** Folder to find the repository from when the input names none. */
  cwd: string;
  index?: IndexOptions;
  daemon?: QueryContext["daemon"];
}

export const BLAME_WORKERS = Math.max(2, Math.min(8, availableParallelism()));

export async function answer(name: string, raw: Record<string, unknown>, opts: AnswerOptions): Promise<unknown> {
  const def = findQuery(name);
  if (!def) throw new LoreError("UNKNOWN_QUESTION", `lore has no question "${name}"; run lore --help for the list.`);
  const { ask, rest } = takeAsk(raw);
  const given = validateInput(def, rest);
  await ensureGit();
  // The worktree its paths are in (a linked worktree inside the checkout is its own), else the one repo names.
  const asked = await askedRepo(def, { ...given, repo: resolve(opts.cwd, (given.repo as string | undefined) ?? ".") }, discoverRepo);
  const { repo, input } = await worktreeFor(def, given, asked, discoverRepo);
  const index = indexOf(repo, opts.index);
  // In this process too, but the work stops at the deadline (the process ends with the answer): a continue redoes it from the token.
  const { Deadlines, askedOf } = await import("./deadline.ts");
  const job = askedOf(def, given, repo);
  return answerInPages(
    boundFor(def, job, repo),
    ask,
    async (widen, from) => {
      const run = async (partial?: PartialWork) => {
        if (def.needsIndex !== false) await index.refresh();
        const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: BLAME_WORKERS, daemon: opts.daemon, partial };
        return def.run(ctx, widen(input) as never);
      };
      if (ask.deadlineMs === undefined && !from) return run();
      const { stopLane } = await import("../git/processes.ts");
      return new Deadlines().answer({ ...job, input: widen(given) }, { ...ask, from }, run, stopLane);
    },
    aboutWorkTree(def, given),
  );
}
