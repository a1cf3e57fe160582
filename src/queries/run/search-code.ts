/** Code search: the commits `git log -S TEXT` (or -G REGEX) lists, with the files where the count changed. */
import { LoreError } from "../../errors.ts";
import { basicToJs, countInPatch, parsePickaxeLog, PICKAXE_FORMAT, type PickaxeCommit } from "../../git/parse-pickaxe.ts";
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchOutput } from "../search.ts";
import { iso, repoPath, shortSha } from "./common.ts";

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
  const found = await pickaxe(ctx, text, input.regex === true, scope.commit, paths, input.oldest ? undefined : limit + 1);
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
      files: c.files.map((f) => ({ path: f.path, ...countInPatch(f.patch, find) })),
    })),
    truncated: found.length > limit,
  };
}

/** git log -S/-G over `rev` (the oldest first when no limit is given: --reverse walks everything anyway). */
export async function pickaxe(ctx: QueryContext, text: string, regex: boolean, rev: string, paths: string[], limit: number | undefined, revs?: string[]): Promise<PickaxeCommit[]> {
  const args = ["--literal-pathspecs", "log", regex ? `-G${text}` : `-S${text}`, ...DIFF_ARGS];
  if (limit !== undefined) args.push("-n", String(limit));
  else args.push("--reverse");
  args.push(...(revs ?? [rev]), "--", ...paths);
  try {
    return parsePickaxeLog(await gitText(args, ctx.index.git));
  } catch (err) {
    if (err instanceof LoreError && /invalid regex|regcomp|unmatched|invalid (preceding|character|back)/i.test(err.message))
      throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err.message.replace(/^git \w+ failed: /, "")}`);
    throw err;
  }
}

/** The regex git takes (POSIX basic), as JavaScript for counting; BAD_ARGUMENT when it cannot compile. */
function jsRegex(text: string): RegExp {
  try {
    return new RegExp(basicToJs(text), "g");
  } catch (err) {
    throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err instanceof Error ? err.message : String(err)}`);
  }
}
