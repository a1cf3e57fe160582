/**
 * The lines of `-L :NAME` as git blame finds them (its funcname rules: the regex, and the diff
 * driver's funcname pattern from .gitattributes), in a commit's version or in the file on disk.
 */
import { LoreError } from "../../errors.ts";
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import { mergeHeads } from "./disk-merge.ts";

/** ":NAME" checked: a function name git can look for. */
export function checkedFunction(L: string): string {
  const name = L.slice(1);
  if (name === "" || name.includes(":")) throw new LoreError("BAD_RANGE", `-L :NAME needs a function name (a regex git matches against the line that starts it), not "${L}".`);
  return L;
}

/** The lines of `spec` (":NAME") in the file at rev (rev^!: git blames that commit alone, no history walked; textconv, a program, off). */
export function functionAt(ctx: QueryContext, rev: string, path: string, spec: string): Promise<[number, number]> {
  return linesOf(ctx, ["blame", "--porcelain", "--no-textconv", "--no-ignore-revs-file", `-L${spec}`, `${rev}^!`, "--", path], path);
}

/**
 * The lines of `spec` in the file on disk, as `git blame -L :NAME -- PATH` finds them there. HEAD
 * (and a merge's other parents) excluded: git then diffs the file with HEAD once and walks no history.
 * Filters (programs) and textconv off: git reads the bytes lore reads. No ignore list (--no-ignore-revs-file,
 * here and in functionAt): it moves no line, and a blame.ignoreRevsFile naming a missing file stops git.
 */
export async function functionOnDisk(ctx: QueryContext, head: string, path: string, spec: string): Promise<[number, number]> {
  const not = [head, ...mergeHeads(ctx)].map((c) => `^${c}`);
  return linesOf(ctx, ["blame", "--porcelain", "--no-textconv", "--no-ignore-revs-file", `-L${spec}`, ...not, "--", path], path);
}

async function linesOf(ctx: QueryContext, args: string[], path: string): Promise<[number, number]> {
  let text: string;
  try {
    text = await gitText(args, ctx.index.git);
  } catch (err) {
    if (err instanceof LoreError && /no match/i.test(err.message)) throw new LoreError("BAD_RANGE", err.message.replace(/^git \w+ failed: /, ""));
    // Neither in HEAD nor staged: git blame knows no such file, so it finds no function in it.
    if (err instanceof LoreError && /no such path/i.test(err.message))
      throw new LoreError("BAD_RANGE", `${path} is neither committed nor staged: git blame finds no function in it. Ask for its lines (-L A,B), or git add it first.`);
    throw err;
  }
  const lines = [...text.matchAll(/^[0-9a-f]{40,64} \d+ (\d+)/gm)].map((m) => Number(m[1]));
  return lines.length ? [Math.min(...lines), Math.max(...lines)] : [0, 0];
}
