/** Code search: the commits `git log -S TEXT` (or -G REGEX) lists, with the files where the count changed. */
import { LoreError } from "../../errors.ts";
import { countInPatch, parsePickaxeLog, PICKAXE_FORMAT, type PickaxeCommit } from "../../git/parse-pickaxe.ts";
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchOutput } from "../search.ts";
import { iso, repoPath, shortSha } from "./common.ts";

/** How code searches were answered in this process (tests and benchmarks read it). */
export const codeSearchStats = { fromIndex: 0, throughGit: 0 };

/** Files listed per commit; a sweeping change says how many there were in all (filesTotal). */
const MAX_FILES = 50;

const DIFF_ARGS = ["-z", "--raw", "-p", "--no-ext-diff", "--no-textconv", "--no-color", `--format=${PICKAXE_FORMAT}`];

export async function searchCode(ctx: QueryContext, input: Input<typeof SEARCH_ARGS>): Promise<SearchOutput> {
  const text = input.query;
  if (text === "") throw new LoreError("BAD_ARGUMENT", "search --code needs a text to look for.");
  if (input.newest || input.author !== undefined || input.since !== undefined)
    throw new LoreError("BAD_ARGUMENT", "newest, author and since go with a message search; search --code lists commits in git's order (oldest first with --oldest).");
  const find = input.regex ? jsRegex(text) : text;
  const scope = await ctx.index.scope(input.until);
  const limit = input.limit ?? 5;
  const paths = (input.paths ?? []).map((p) => repoPath(ctx, p)).filter((p) => p !== "");
  const { store } = ctx.index;
  // The index answers only for HEAD, once the pass reached it, over the whole history (not a LORE_MAX_COMMITS cut).
  const fast = !input.regex && IDENTIFIER.test(text) && paths.length === 0 && scope.atHead && store.meta("codeHead") === scope.commit && store.meta("truncated") === undefined;
  codeSearchStats[fast ? "fromIndex" : "throughGit"]++;
  const found = fast
    ? await confirmed(ctx, text, ctx.index.store.search.codeCandidates(scope.table, text), input.oldest === true, limit + 1)
    : await pickaxe(ctx, text, input.regex === true, { revs: [scope.commit], paths, ...(input.oldest ? { reverse: true } : { limit: limit + 1 }) });
  const commits = found.slice(0, limit);
  return {
    repo: ctx.index.repo.root,
    rev: scope.commit,
    query: text,
    mode: input.regex ? "regex" : "pickaxe",
    results: commits.map((c) => ({
      sha: shortSha(c.sha),
      author: c.author,
      time: iso(c.time),
      subject: c.subject,
      files: c.files.slice(0, MAX_FILES).map((f) => ({ path: f.path, ...countInPatch(f.patch, find) })),
      ...(c.files.length > MAX_FILES ? { filesTotal: c.files.length } : {}),
    })),
    truncated: found.length > limit,
  };
}

/** A text the change index can narrow: a run of the characters its words are made of, as long as its words. */
const IDENTIFIER = /^[A-Za-z0-9_]{3,}$/;

/**
 * The commits git log -S keeps among the candidates (in git log order), `want` at most: git walks
 * the given list in its order and stops at `want` (-n), so one process asks about thousands.
 */
async function confirmed(ctx: QueryContext, text: string, candidates: string[], oldest: boolean, want: number): Promise<PickaxeCommit[]> {
  const order = oldest ? candidates.reverse() : candidates;
  const out: PickaxeCommit[] = [];
  // git reads every id on its stdin before it walks: a few first (most candidates are matches), more only when they fall short.
  let chunk = FIRST_CHUNK_PER_WANTED * want + 4;
  for (let i = 0; i < order.length && out.length < want; i += chunk, chunk = Math.min(chunk * 8, MAX_CHUNK)) {
    const part = order.slice(i, i + chunk);
    out.push(...(await pickaxe(ctx, text, false, { revs: ["--no-walk=unsorted", "--stdin"], input: part.join("\n") + "\n", limit: want - out.length })));
  }
  return out;
}

/**
 * Candidates per result wanted in the first git process: about half are matches (a word that holds the
 * text changed, the text's own count did not, or git paired a moved file); each costs git ~0.3 ms.
 */
const FIRST_CHUNK_PER_WANTED = 2;
/** Candidates at most in one git process. */
const MAX_CHUNK = 20_000;

interface PickaxeWalk {
  revs: string[];
  paths?: string[];
  limit?: number;
  /** Oldest first (git walks everything for --reverse anyway). */
  reverse?: boolean;
  /** Revisions on stdin (with --stdin in revs). */
  input?: string;
}

/** git log -S/-G with the files it keeps and their patches. */
export async function pickaxe(ctx: QueryContext, text: string, regex: boolean, walk: PickaxeWalk): Promise<PickaxeCommit[]> {
  const args = ["--literal-pathspecs", "log", regex ? `-G${text}` : `-S${text}`, ...DIFF_ARGS];
  if (walk.limit !== undefined) args.push("-n", String(walk.limit));
  if (walk.reverse) args.push("--reverse");
  args.push(...walk.revs, "--", ...(walk.paths ?? []));
  try {
    return parsePickaxeLog(await gitText(args, { ...ctx.index.git, input: walk.input }));
  } catch (err) {
    if (err instanceof LoreError && /invalid regex|regcomp|unmatched|invalid (preceding|character|back)/i.test(err.message))
      throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err.message.replace(/^git \w+ failed: /, "")}`);
    throw err;
  }
}

/** POSIX bracket classes and GNU word edges, which JavaScript spells otherwise. */
const POSIX: [RegExp, string][] = [
  [/\[:alpha:\]/g, "A-Za-z"],
  [/\[:digit:\]/g, "0-9"],
  [/\[:alnum:\]/g, "A-Za-z0-9"],
  [/\[:upper:\]/g, "A-Z"],
  [/\[:lower:\]/g, "a-z"],
  [/\[:space:\]/g, "\\s"],
  [/\[:blank:\]/g, " \\t"],
  [/\[:xdigit:\]/g, "0-9A-Fa-f"],
  [/\[:punct:\]/g, "!-\\/:-@\\[-`{-~"],
  [/\\[<>]/g, "\\b"],
];

/** The regex git takes (POSIX extended), as JavaScript reads it for counting; BAD_ARGUMENT when it cannot compile. */
function jsRegex(text: string): RegExp {
  try {
    return new RegExp(POSIX.reduce((re, [from, to]) => re.replace(from, to), text), "g");
  } catch (err) {
    throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err instanceof Error ? err.message : String(err)}`);
  }
}
