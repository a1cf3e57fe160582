/** Message search: FTS5 over subject and body, ranked (message-order.ts) or newest first, in the scope's history. */
import { familyFor, withProvenance } from "./provenance.ts";
import { walkStops } from "./history-stops.ts";
import { LoreError } from "../../errors.ts";
import { gitText } from "../../git/run.ts";
import type { MessageHit } from "../../store/search-store.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchOutput } from "../search.ts";
import { HistoryNotYet, iso, neverCommitted, repoPath, shortSha, windowOf } from "./common.ts";
import { ftsQuery } from "./fts-query.ts";
import { snippet, snippetTerms } from "./snippet.ts";

export async function searchMessages(ctx: QueryContext, input: Input<typeof SEARCH_ARGS>): Promise<SearchOutput> {
  if (input.regex || input.oldest) throw new LoreError("BAD_ARGUMENT", "--regex and --oldest go with a code search (--code); a message search takes words.");
  const match = ftsQuery(input.query);
  const scope = await ctx.index.scope(input.until);
  // Every message is needed, not just the newest: wait for the first index to end.
  if (scope.prefix !== undefined) throw new HistoryNotYet();
  const limit = input.limit ?? 20;
  const since = input.since === undefined ? undefined : (await windowOf(ctx, { ...scope, prefix: undefined }, "all", input.since)).since!;
  const paths = (input.paths ?? []).map((p) => repoPath(ctx, p));
  const pathIds = paths.length ? pathIdsUnder(ctx, paths, input.query) : undefined;
  const { store } = ctx.index;
  if (store.search.messagesBehind()) store.transaction(() => store.search.catchUpMessages());
  const found = store.search.messages({ scope: scope.table, match, author: input.author, since, pathIds, newest: input.newest === true, limit: pathIds ? undefined : limit });
  const all = pathIds ? await mergesGitShows(ctx, found.hits, paths) : found.hits;
  const total = pathIds ? all.length : found.total;
  const hits = all.slice(0, limit);
  const terms = snippetTerms(input.query);
  const family = familyFor(ctx, paths.length === 1 ? paths[0] : undefined);
  return {
    repo: ctx.index.repo.root,
    rev: scope.commit,
    query: input.query,
    results: hits.map((h) => withProvenance(ctx, { sha: shortSha(h.sha), author: h.author, time: iso(h.time), subject: h.subject, snippet: snippet(h.message, terms) }, h.sha, family)),
    total,
    truncated: total > hits.length,
    // total counts every commit that matches: those below a shallow clone's boundary are not here.
    ...(await walkStops(ctx, [], true, since)),
  };
}

/**
 * With PATHs, a merge is listed when git log -- PATH lists it (not the same as one of its parents
 * there): the index keeps no merge diffs, so git says which of the matching merges that is.
 */
async function mergesGitShows(ctx: QueryContext, hits: MessageHit[], paths: string[]): Promise<MessageHit[]> {
  const merges = hits.filter((h) => h.merge);
  if (merges.length === 0) return hits;
  const out = await gitText(["--literal-pathspecs", "log", "--no-walk=unsorted", "--stdin", "--format=%H", "--", ...paths], { ...ctx.index.git, input: merges.map((m) => m.sha).join("\n") + "\n" });
  const shown = new Set(out.split("\n"));
  return hits.filter((h) => !h.merge || shown.has(h.sha));
}

/** The ids of the paths that are, or are under, each of `paths` ("" is the whole repository: no filter). */
function pathIdsUnder(ctx: QueryContext, paths: string[], query: string): number[] | undefined {
  if (paths.includes("")) return undefined;
  const h = ctx.index.store.history;
  const ids = new Set<number>();
  for (const p of paths) {
    const under = h.pathsUnder(p + "/");
    const own = h.pathId(p);
    if (own === undefined && under.length === 0) {
      const err = neverCommitted(ctx, p);
      // `lore search fix typo` reads typo as a path: say how to search for both words.
      throw new LoreError(err.code, `${err.message} To search for several words, quote them: lore search "${query} ${p}".`);
    }
    if (own !== undefined) ids.add(own);
    for (const u of under) ids.add(h.pathId(u)!);
  }
  return [...ids];
}
