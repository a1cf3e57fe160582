/** Asks the report's questions in this process (--no-daemon): the index refreshed once, then each question run on it. */
import { resolve } from "node:path";
import { indexFor } from "../index/indexes.ts";
import { BLAME_WORKERS } from "../queries/answer.ts";
import type { QueryContext } from "../queries/context.ts";
import { validateInput } from "../queries/define.ts";
import { findQuery } from "../queries/index.ts";
import type { Ask } from "./data.ts";

export async function askHere(dir: string): Promise<Ask> {
  const index = await indexFor(resolve(dir));
  await index.refresh();
  const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: BLAME_WORKERS };
  return async (name, input) => {
    const def = findQuery(name)!;
    return def.run(ctx, validateInput(def, input) as never);
  };
}
