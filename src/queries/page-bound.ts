/**
 * What a continue token is bound to, beside the question and HEAD: the files that change answers
 * without a commit (.mailmap, a shallow clone's bounds, the ignore-revs file) and, for a question about
 * the work tree (review of uncommitted work, changes, cochange --changed), git's staging area; such a
 * question's pages are bound to its whole answer too (pages.ts), since an edit moves neither.
 */
import { join, relative, resolve } from "node:path";
import type { Repo } from "../git/repo.ts";
import type { Bound } from "./continue-token.ts";
import type { AnyQuery } from "./define.ts";
import type { Asked } from "./deadline.ts";
import { fileStamp, fileStamps } from "./file-stamps.ts";
import { pathArgNames } from "./worktree-input.ts";

/** The token's binding for a question as a deadline's job knows it (HEAD, the file's stamp), asked of `repo`. */
export function boundFor(def: AnyQuery, asked: Asked, repo: Repo): Bound {
  const { input, head, disk } = asked;
  const state = aboutWorkTree(def, input) ? `${fileStamps(repo)}|${fileStamp(join(repo.gitDir, "index"))}` : fileStamps(repo);
  return { root: repo.root, name: def.name, input: sealedInput(def, input, repo), head, ...(disk !== undefined ? { disk } : {}), state };
}

/** The input as the seal sees it: each path as the repository names it, however it was spelled (./x, x, /abs/x; the root as no path at all); the repository is the root's. */
function sealedInput(def: AnyQuery, input: Record<string, unknown>, repo: Repo): Record<string, unknown> {
  const { repo: _spelled, ...sealed } = input;
  const named = (p: string) => relative(repo.root, resolve(repo.root, p));
  for (const name of pathArgNames(def)) {
    const v = sealed[name];
    if (typeof v === "string") sealed[name] = named(v) || undefined;
    else if (Array.isArray(v)) {
      const paths = v.map((p) => (typeof p === "string" ? named(p) : p)).filter((p) => p !== "");
      sealed[name] = paths.length ? paths : undefined;
    }
  }
  return sealed;
}

/** A question whose answer moves with the work tree, without a commit. */
export function aboutWorkTree(def: AnyQuery, input: Record<string, unknown>): boolean {
  return def.cacheable === false || input.changed === true;
}
