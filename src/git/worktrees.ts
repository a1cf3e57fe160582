/** The worktrees of a repository as its files tell them: which work tree holds a path, and which ones lost their folder. */
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { LoreError } from "../errors.ts";

/** The innermost folder at or above `abs` that is a work tree's top (it has a `.git` file or folder); undefined when none is. */
export function innermostWorkTree(abs: string): string | undefined {
  for (let d = abs; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The work trees git lists for the repository whose common dir is `commonDir`, beyond the main one: [root, name]. */
function linkedWorktrees(commonDir: string): [string, string][] {
  let names: string[] = [];
  try {
    names = readdirSync(join(commonDir, "worktrees"));
  } catch {
    return [];
  }
  const out: [string, string][] = [];
  for (const name of names) {
    try {
      // gitdir holds the path of the worktree's .git file.
      const gitFile = readFileSync(join(commonDir, "worktrees", name, "gitdir"), "utf8").trim();
      if (isAbsolute(gitFile)) out.push([dirname(gitFile), name]);
    } catch {}
  }
  return out;
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

/**
 * The error for `abs` when it lies in a worktree of this repository whose folder was deleted
 * while git still lists it (`git worktree prune` not run yet); undefined otherwise.
 */
export function deletedWorktreeError(commonDir: string, abs: string): LoreError | undefined {
  for (const [root, name] of linkedWorktrees(commonDir)) {
    if (existsSync(root) || !within(abs, root)) continue;
    const where = abs === root ? `The worktree "${name}" at ${root}` : `${abs} is in the worktree "${name}" at ${root}, which`;
    return new LoreError("PATH_NOT_FOUND", `${where} was deleted, but git still lists it: run git worktree prune to forget it (git worktree add makes a new one).`);
  }
  return undefined;
}

/**
 * The common git dir of the linked worktree holding `dir`, read from its files alone (its `.git`
 * file names its git dir, whose `commondir` names the shared one): no git runs in a folder not yet trusted.
 */
export function linkedCommonDir(dir: string): string | undefined {
  const top = innermostWorkTree(dir);
  if (top === undefined) return undefined;
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(join(top, ".git"), "utf8"));
    if (!m) return undefined;
    const gitDir = resolve(top, m[1]!);
    return realpathSync(resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()));
  } catch {
    return undefined;
  }
}

/** `p` with symlinks resolved, or as given when it does not exist. */
export function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The nearest existing folder at or above `p`. */
export function existingAncestor(p: string): string {
  let d = resolve(p);
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}
