/** Code search: the commits `git log -S TEXT` (or -G REGEX) lists, with the files where the count changed. */
import { familyFor, withProvenance } from "./provenance.ts";
import { LoreError } from "../../errors.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchOutput } from "../search.ts";
import { iso, repoPath, shortSha } from "./common.ts";
import { pickaxeWalk } from "./pickaxe-walk.ts";
import type { LeftOut } from "./pickaxe-damage.ts";
import { jsRegex, pickaxe, withCounts, type Found } from "./pickaxe-git.ts";
import { codeSearchStats, fromIndex, IDENTIFIER } from "./search-code-index.ts";
import { addedHunks } from "./pickaxe-hunks.ts";
import { boundaryCommit, indexBoundaryOf, walkStops } from "./history-stops.ts";

export { codeSearchStats };

/** Files listed per commit; a sweeping change says how many there were in all (filesTotal). */
const MAX_FILES = 50;

export async function searchCode(ctx: QueryContext, input: Input<typeof SEARCH_ARGS>): Promise<SearchOutput> {
  const text = input.query;
  if (text === "") throw new LoreError("BAD_ARGUMENT", "A code search (--code) needs a text to look for.");
  if (input.newest || input.author !== undefined || input.since !== undefined)
    throw new LoreError("BAD_ARGUMENT", "--newest, --author and --since go with a message search; a code search (--code) lists commits in git's order (oldest first with --oldest).");
  const find = input.regex ? jsRegex(text) : text;
  const scope = await ctx.index.scope(input.until);
  const limit = input.limit ?? 5;
  const paths = (input.paths ?? []).map((p) => repoPath(ctx, p)).filter((p) => p !== "");
  const { store } = ctx.index;
  // The index answers only for HEAD, over the whole history (not a LORE_MAX_COMMITS cut): once the
  // pass reached HEAD, or while it runs when the newest commits it has read hold the answer.
  const indexable = !input.regex && IDENTIFIER.test(text) && paths.length === 0 && scope.atHead && store.meta("truncated") === undefined;
  const left: LeftOut = { paths: [], why: [] };
  const fromIdx = indexable ? await fromIndex(ctx, text, input.oldest === true, limit + 1, store.meta("codeHead") === scope.commit, left) : undefined;
  codeSearchStats[fromIdx ? "fromIndex" : "throughGit"]++;
  const head = { repo: ctx.index.repo.root, rev: scope.commit, query: text, mode: input.regex ? ("regex" as const) : ("pickaxe" as const) };
  // Through git the walk is long: each commit found goes out at once if the answer is wanted early.
  ctx.partial?.begin(head, "results");
  let sent = 0;
  // HEAD's whole history, indexed: the index knows how many commits the walk has.
  const of = paths.length === 0 && store.meta("truncated") === undefined && store.meta("indexedHead") === scope.commit ? store.history.reachBounds().count : undefined;
  const walk = { commit: scope.commit, paths, oldest: input.oldest === true, want: limit + 1, of };
  const found =
    fromIdx ??
    // Oldest first, git's --reverse walks and diffs all history before its first line; the slices stop at the first found.
    (ctx.partial || input.oldest
      ? await pickaxeWalk(
          ctx,
          text,
          input.regex === true,
          walk,
          (c) => {
            if (sent++ < limit) ctx.partial?.add(resultOf(withCounts(c, find)));
          },
          left,
        )
      : // Nobody waits on a part of it: git's own walk, one process.
        await pickaxe(ctx, text, input.regex === true, { revs: [scope.commit], paths, limit: limit + 1 }, left)
    ).map((c) => withCounts(c, find));
  const commits = found.slice(0, limit);
  // A shallow clone's boundary commit: git diffs it against nothing, so the text looks added there; it may be older.
  const boundary = await indexBoundaryOf(ctx);
  const atBoundary = (sha: string) => boundaryCommit(boundary, sha) !== undefined;
  // When was it introduced: the lines the oldest commit added it with, so no show of its whole diff is needed (not a boundary's, which added nothing).
  const diff = input.oldest && commits[0] && !atBoundary(commits[0].sha) ? await addedHunks(ctx, commits[0].sha, commits[0].files, find).catch(belowBoundary) : undefined;
  // The oldest first walks all of it; the newest first reach the boundary when the walk found no more above it.
  const stops = await walkStops(ctx, commits.map((c) => c.sha), input.oldest === true || found.length <= limit);
  const family = familyFor(ctx, input.paths?.length === 1 ? repoPath(ctx, input.paths[0]!) : undefined);
  const results = commits.map((c) => withProvenance(ctx, atBoundary(c.sha) ? { ...resultOf(c), boundary: true as const } : resultOf(c), c.sha, family));
  return { ...head, results, ...(diff ? { diff } : {}), truncated: found.length > limit, ...(left.why.length ? { leftOut: left.why } : {}), ...stops };
}

/** A commit of an imported history below a shallow clone's boundary: git has not its patch, so the answer has no lines of it. */
function belowBoundary(err: unknown): undefined {
  if (err instanceof LoreError && err.code === "BAD_REVISION") return undefined;
  throw err;
}

function resultOf(c: Found) {
  return {
    sha: shortSha(c.sha),
    author: c.author,
    time: iso(c.time),
    subject: c.subject,
    files: c.files.slice(0, MAX_FILES),
    ...(c.files.length > MAX_FILES ? { filesTotal: c.files.length } : {}),
  };
}

