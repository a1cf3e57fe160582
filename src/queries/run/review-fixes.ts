/** Which commit messages say they fixed something: the lines an agent should not undo without reading why. */
import { git } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

/**
 * A word that says so (fix, fixes, fixed, bugfix, hotfix, bug, regression, revert, workaround,
 * security, a CVE id), whole words only ("prefix", "debug" and "fixture" are not fixes), or a
 * `Fixes`/`Closes`/`Resolves` reference to an issue.
 */
const FIX_WORDS = /\b(?:fix(?:e[sd]|ing)?|bug(?:s|fix(?:es)?)?|hotfix(?:es)?|regressions?|revert(?:s|ed|ing)?|work-?arounds?|security|cve-\d{4}-\d+)\b/i;
const FIX_TRAILER = /^\s*(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s*:?\s+(?:[\w.-]+\/[\w.-]+)?#\d+/im;

export function saysFix(message: string): boolean {
  return FIX_WORDS.test(message) || FIX_TRAILER.test(message);
}

/** The whole message of each commit (full shas), from the index, or from git for one it does not hold. */
export async function messagesOf(ctx: QueryContext, shas: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const sha of shas) {
    const c = ctx.index.store.history.commitBySha(sha);
    if (c) out.set(sha, c.message);
    else missing.push(sha);
  }
  if (missing.length) {
    const text = (await git(["show", "-s", "--no-notes", "--format=%H%x00%B%x00", ...missing, "--"], ctx.index.git)).toString("utf8");
    const parts = text.split("\0");
    for (let i = 0; i + 1 < parts.length; i += 2) out.set(parts[i]!.trim(), parts[i + 1]!.replace(/\n+$/, ""));
  }
  return out;
}
