/** git log -S/-G run by git: the commits it lists with their files' patches, counted; a regex as git reads it. */
import { LoreError } from "../../errors.ts";
import { countInPatch, parsePickaxeLog, PICKAXE_FORMAT, type PickaxeCommit } from "../../git/parse-pickaxe.ts";
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { SearchFile } from "../search.ts";
import { leftOutWhy, MAX_LEFT_OUT, pathsHolding, pathspecArgs, unreadableObject, type LeftOut } from "./pickaxe-damage.ts";

/** -M as the change index pairs renames (git's default, whatever diff.renames says). */
const DIFF_ARGS = ["-M", "-z", "--raw", "-p", "--no-ext-diff", "--no-textconv", "--no-color", `--format=${PICKAXE_FORMAT}`];

/** A commit git log -S lists, and the files where the text's count changed with its occurrences on their changed lines. */
export interface Found {
  sha: string;
  author: string;
  time: number;
  subject: string;
  files: SearchFile[];
}

export function withCounts(c: PickaxeCommit, find: string | RegExp): Found {
  return { ...c, files: c.files.map((f) => ({ path: f.path, ...countInPatch(f.patch, find) })) };
}

interface PickaxeWalk {
  revs: string[];
  paths?: string[];
  limit?: number;
  /** Oldest first (git walks everything for --reverse anyway). */
  reverse?: boolean;
  /** Revisions on stdin (with --stdin in revs). */
  input?: string;
}

/**
 * git log -S/-G with the files it keeps and their patches. On a damaged clone git stops at the
 * first content it cannot read: with `left`, the paths holding that object are left out and git
 * asked again (a few times at most), so the answer covers what can be read and says what it left out.
 */
export async function pickaxe(ctx: QueryContext, text: string, regex: boolean, walk: PickaxeWalk, left?: LeftOut): Promise<PickaxeCommit[]> {
  for (let tries = 0; ; tries++) {
    const { literal, specs } = pathspecArgs(walk.paths ?? [], left);
    const args = [literal, "log", regex ? `-G${text}` : `-S${text}`, ...DIFF_ARGS];
    if (walk.limit !== undefined) args.push("-n", String(walk.limit));
    if (walk.reverse) args.push("--reverse");
    args.push(...walk.revs, "--", ...specs);
    try {
      return parsePickaxeLog(await gitText(args, { ...ctx.index.git, input: walk.input }));
    } catch (err) {
      if (err instanceof LoreError && /invalid regex|regcomp|unmatched|invalid (preceding|character|back)/i.test(err.message))
        throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err.message.replace(/^git \w+ failed: /, "")}`);
      const blob = unreadableObject(err);
      if (!left || !blob || tries >= MAX_LEFT_OUT) throw err;
      const fresh = (await pathsHolding(ctx, blob, walk.revs, walk.input)).filter((p) => !left.paths.includes(p));
      if (fresh.length === 0) throw err;
      left.paths.push(...fresh);
      left.why.push(...fresh.map((p) => leftOutWhy(p, blob)));
    }
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
export function jsRegex(text: string): RegExp {
  try {
    return new RegExp(POSIX.reduce((re, [from, to]) => re.replace(from, to), text), "g");
  } catch (err) {
    throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err instanceof Error ? err.message : String(err)}`);
  }
}
