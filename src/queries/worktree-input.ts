/**
 * The worktree a question is asked in: the innermost work tree of the asked repository that
 * holds its path arguments (a linked worktree inside the main checkout included), the same on every face.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { LoreError } from "../errors.ts";
import type { Repo } from "../git/repo.ts";
import { deletedWorktreeError, existingAncestor, innermostWorkTree, realOr } from "../git/worktrees.ts";
import type { AnyQuery } from "./define.ts";

/** The arguments that name paths (a revision or a search text does not). */
export function pathArgNames(def: AnyQuery): string[] {
  return Object.entries(def.args)
    .filter(([, s]) => s.positional && !s.text && !s.revision)
    .map(([name]) => name);
}

/** The worktree of `repo`'s repository that holds `abs`: `repo` itself unless another worktree of it is the innermost work tree there. */
async function holderOf(abs: string, repo: Repo, discover: (dir: string) => Promise<Repo>): Promise<Repo> {
  const top = innermostWorkTree(abs);
  if (top === undefined || realOr(top) === repo.root) {
    if (!existsSync(abs)) {
      const gone = deletedWorktreeError(repo.commonDir, abs);
      if (gone) throw gone;
    }
    return repo;
  }
  const other = await discover(top).catch(() => undefined);
  // A submodule or an unrelated repository is not this one: the path is answered (or refused) as before.
  return other && other.commonDir === repo.commonDir ? other : repo;
}

/** The first absolute path among a question's path arguments: over MCP it names the worktree when `repo` does not. */
export function firstAbsolutePath(def: AnyQuery, input: Record<string, unknown>): string | undefined {
  for (const name of pathArgNames(def)) {
    const value = input[name];
    for (const p of Array.isArray(value) ? value : [value]) if (typeof p === "string" && isAbsolute(p)) return p;
  }
  return undefined;
}

/**
 * The worktree `repo` names; when that folder is in no repository, the one around the first
 * absolute path (`lore blame /src/app/x.ts` asked from anywhere answers where the file is).
 */
export async function askedRepo(def: AnyQuery, input: Record<string, unknown>, discover: (dir: string) => Promise<Repo>): Promise<Repo> {
  try {
    return await discover(input.repo as string);
  } catch (err) {
    const abs = firstAbsolutePath(def, input);
    if (!(err instanceof LoreError && err.code === "NOT_A_REPO") || abs === undefined) throw err;
    const near = existingAncestor(abs);
    return discover(near === abs && !statSync(near).isDirectory() ? dirname(near) : near).catch(() => {
      throw err;
    });
  }
}

/**
 * `repo` (the worktree the question's `repo` names) or the worktree its paths are in, with the
 * input to ask there (paths made absolute: relative ones were relative to `repo`'s root).
 * Paths in two worktrees at once are BAD_ARGUMENT: one answer is about one HEAD.
 */
export async function worktreeFor(
  def: AnyQuery,
  input: Record<string, unknown>,
  repo: Repo,
  discover: (dir: string) => Promise<Repo>,
): Promise<{ repo: Repo; input: Record<string, unknown> }> {
  let chosen: Repo | undefined;
  const absolute: Record<string, string | string[]> = {};
  for (const name of pathArgNames(def)) {
    const value = input[name];
    if (value === undefined) continue;
    const list = Array.isArray(value) ? (value as string[]) : [value as string];
    const abs = list.map((p) => (p === "" || p === "." ? repo.root : isAbsolute(p) ? p : resolve(repo.root, p)));
    for (let i = 0; i < abs.length; i++) {
      const holder = await holderOf(abs[i]!, repo, discover);
      if (chosen && chosen.gitDir !== holder.gitDir)
        throw new LoreError("BAD_ARGUMENT", `The paths are in two worktrees (${chosen.root} and ${holder.root}); ask about the paths of one worktree at a time.`);
      chosen = holder;
    }
    absolute[name] = Array.isArray(value) ? abs : abs[0]!;
  }
  if (!chosen || chosen.gitDir === repo.gitDir) return { repo, input };
  return { repo: chosen, input: { ...input, ...absolute, repo: chosen.root } };
}
