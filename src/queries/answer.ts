/** Answers a question in this process: finds the repository, freshens its index, runs the question. */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { LoreError } from "../errors.ts";
import { indexFor } from "../index/indexes.ts";
import type { IndexOptions } from "../index/context.ts";
import type { QueryContext } from "./context.ts";
import { validateInput } from "./define.ts";
import { findQuery } from "./index.ts";

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
  const input = validateInput(def, raw);
  const index = await indexFor(resolve(opts.cwd, (input.repo as string | undefined) ?? "."), opts.index);
  if (def.needsIndex !== false) await index.refresh();
  const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: BLAME_WORKERS, daemon: opts.daemon };
  return def.run(ctx, input as never);
}
