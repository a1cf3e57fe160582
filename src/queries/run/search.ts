/** How search is answered: commit messages from the index, or code changes (--code) through git and the change index. */
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchOutput } from "../search.ts";

export async function run(ctx: QueryContext, input: Input<typeof SEARCH_ARGS>): Promise<SearchOutput> {
  if (input.code) return (await import("./search-code.ts")).searchCode(ctx, input);
  return (await import("./search-messages.ts")).searchMessages(ctx, input);
}
