/** The commands that clean up merged branches, quoted for a POSIX shell; lore prints them and runs none. */
import type { Branch } from "../branches.ts";

/** A word a shell reads as itself: as it is when plain, else in single quotes (a ref name may hold $ ` ; & and the like). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._\/@%+=:,-]+$/.test(word) && !word.startsWith("-") ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * For each merged local branch: remove the linked worktree that has it (git branch refuses to delete a
 * checked-out branch), then delete it — `-d` when its tip is merged, `-D` when only copies of its
 * commits are (git -d would refuse: it knows ancestors only). Never the default branch, nor the branch
 * of the main work tree.
 */
export function cleanup(branches: Branch[], keep: Set<string>, mainWorktree: string | undefined): string[] {
  const out: string[] = [];
  for (const b of branches) {
    if (!b.merged || b.remote || keep.has(b.name)) continue;
    if (b.worktree !== undefined) {
      if (b.worktree === mainWorktree) continue;
      out.push(`git worktree remove ${shellWord(b.worktree)}`);
    }
    out.push(`git branch ${b.merged === "merge" ? "-d" : "-D"} ${shellWord(b.name)}`);
  }
  return out;
}
