/** Finds the repository a folder belongs to, and what kind it is. */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { LoreError } from "../errors.ts";
import { readHeadCommit } from "./head-file.ts";
import { deletedWorktreeError, existingAncestor } from "./worktrees.ts";
import { gitText, gitMaybe } from "./run.ts";
import { unbornError } from "./unborn.ts";

export interface Repo {
  /** The work tree's top folder, symlinks resolved. */
  root: string;
  /** This work tree's git dir (a linked worktree has its own). */
  gitDir: string;
  /** The git dir shared by all worktrees: objects and refs live here. */
  commonDir: string;
}

/** Why `dir` is missing, when it was a worktree of the repository around its nearest existing folder (deleted, not pruned yet). */
async function deletedWorktree(dir: string): Promise<LoreError | undefined> {
  const near = existingAncestor(dir);
  const common = (await gitMaybe(["rev-parse", "--git-common-dir"], { cwd: near }).catch(() => null))?.toString("utf8").trim();
  if (!common) return undefined;
  const gone = deletedWorktreeError(realpathSync(resolve(near, common)), dir);
  return gone && new LoreError("NOT_A_REPO", gone.message);
}

export async function discoverRepo(dir: string): Promise<Repo> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw (await deletedWorktree(dir)) ?? new LoreError("NOT_A_REPO", `The folder ${dir} does not exist; pass --repo with a folder inside a git repository.`);
  const out = await gitText(["rev-parse", "--is-bare-repository", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"], { cwd: dir }).catch((err) => {
    if (err instanceof LoreError && err.code === "GIT_FAILED" && /work tree/.test(err.message))
      throw new LoreError("NOT_A_REPO", `${dir} is inside a git dir or a bare repository; lore needs a work tree. Run it in a checkout.`);
    throw err;
  });
  const [bare, top, gitDir, common] = out.split("\n");
  if (bare === "true" || !top) throw new LoreError("NOT_A_REPO", `${dir} is a bare repository; lore needs a checkout with a work tree.`);
  const commonDir = isAbsolute(common!) ? common! : resolve(dir, common!);
  return { root: realpathSync(top), gitDir: realpathSync(gitDir!), commonDir: realpathSync(commonDir) };
}

/** HEAD's commit, or null in a repository with no commits yet. */
export async function resolveHead(repo: Repo): Promise<string | null> {
  const out = await gitMaybe(["rev-parse", "--verify", "-q", "HEAD^{commit}"], { cwd: repo.root });
  const sha = out?.toString("utf8").trim();
  return sha ? sha : null;
}

/** HEAD's commit read from the git dir's files, asking git only when they cannot tell (reftable, odd refs). */
export async function currentHead(repo: Repo): Promise<string | null> {
  const fromFiles = readHeadCommit(repo);
  return fromFiles !== undefined ? fromFiles : resolveHead(repo);
}

/** The checked-out branch, or null when HEAD is detached. */
export async function currentBranch(repo: Repo): Promise<string | null> {
  const out = await gitMaybe(["symbolic-ref", "-q", "--short", "HEAD"], { cwd: repo.root });
  const name = out?.toString("utf8").trim();
  return name ? name : null;
}

/**
 * A partial clone (`git clone --filter=...`): some objects were left on the remote and git
 * downloads them when first read. lore never lets it (see gitEnv), and leaves out what needs them.
 */
export function isPartialClone(repo: Repo): boolean {
  let config = "";
  try {
    config = readFileSync(resolve(repo.commonDir, "config"), "utf8");
  } catch {
    return false;
  }
  return /^\s*partialclone\s*=/im.test(config) || /^\s*promisor\s*=\s*(true|yes|on|1)\s*$/im.test(config);
}

export function isShallow(repo: Repo): boolean {
  return existsSync(resolve(repo.commonDir, "shallow"));
}

/** Resolves a revision to a full commit sha; BAD_REVISION when git does not know it. */
export async function resolveCommit(repo: Repo, rev: string): Promise<string> {
  if (rev.startsWith("-")) throw new LoreError("BAD_REVISION", `"${rev}" is not a revision (it looks like an option).`);
  // HEAD, the most asked, from the files when they can tell: a git process costs more than most answers.
  if (rev === "HEAD") {
    const head = readHeadCommit(repo);
    if (head) return head;
  }
  const out = await gitMaybe(["rev-parse", "--verify", "-q", "--end-of-options", `${rev}^{commit}`], { cwd: repo.root });
  const sha = out?.toString("utf8").trim();
  // HEAD (HEAD~2, HEAD@{1}) on an unborn branch: the branch has no commits, which is not an unknown revision.
  if (!sha && /^HEAD(?:[~^@].*)?$/.test(rev) && (await currentHead(repo)) === null) throw await unbornError(repo);
  if (!sha) throw new LoreError("BAD_REVISION", `git does not know the revision "${rev}"; pass a branch, tag or commit that exists (git log shows them).`);
  return sha;
}
