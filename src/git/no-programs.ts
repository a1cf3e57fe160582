/** The programs a repository names, kept from running: textconv drivers and external diffs by flags, clean/smudge filters by config. */
import { noFilterArgs } from "./no-filters.ts";

/** Subcommands that run a repository's textconv drivers unless told not to; with those that also run external diff programs. */
const TEXTCONV = new Set(["blame", "annotate", "grep", "log", "show", "diff", "diff-tree", "diff-index", "diff-files", "whatchanged"]);
const EXT_DIFF = new Set(["log", "show", "diff", "diff-tree", "diff-index", "diff-files", "whatchanged"]);

/** Subcommands that read files of the work tree, through the clean filters the config names (update-index --refresh re-hashes a touched file: review's index copy). */
const READS_WORKTREE = new Set(["diff", "diff-index", "diff-files", "status", "blame", "annotate", "update-index", "hash-object", "ls-files"]);

/** The subcommand's place in args: after the global options (and the value of -c / -C). */
function subcommandAt(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "-c" || args[i] === "-C" ? 2 : 1;
  return i;
}

/** Config that turns the repository's clean/smudge filters off, for the commands that would run them. */
export async function filtersOff(args: readonly string[], cwd: string): Promise<readonly string[]> {
  if (!READS_WORKTREE.has(args[subcommandAt(args)] ?? "")) return args;
  const off = await noFilterArgs(cwd);
  return off.length ? [...off, ...args] : args;
}

/**
 * lore never runs a program a repository's config or attributes name (a textconv driver, an
 * external diff): every answer is about the bytes git stores, the same for every question. The
 * flags go right after the subcommand, wherever the caller put global options before it.
 */
export function withoutPrograms(args: readonly string[]): readonly string[] {
  const i = subcommandAt(args);
  const sub = args[i];
  if (sub === undefined || !TEXTCONV.has(sub)) return args;
  const add = EXT_DIFF.has(sub) ? ["--no-textconv", "--no-ext-diff"] : ["--no-textconv"];
  return [...args.slice(0, i + 1), ...add, ...args.slice(i + 1)];
}
