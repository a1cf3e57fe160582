/** A HEAD that names no commit, said as it is: an unborn branch (a new repository's, or `git checkout --orphan`), in a repository that may have commits elsewhere. */
import { LoreError } from "../errors.ts";
import { readHeadBranch } from "./head-file.ts";
import { gitMaybe } from "./run.ts";
import type { Repo } from "./repo.ts";

/** The newest commit a branch (or remote branch) points at, and its name; null when the repository has no commits at all. */
export async function someCommit(repo: Repo): Promise<{ sha: string; name: string } | null> {
  const out = await gitMaybe(["for-each-ref", "--count=1", "--sort=-committerdate", "--format=%(objectname) %(refname:short)", "refs/heads", "refs/remotes"], { cwd: repo.root });
  const line = out?.toString("utf8").trim().split("\n")[0];
  const at = line ? line.indexOf(" ") : -1;
  return line && at > 0 ? { sha: line.slice(0, at), name: line.slice(at + 1) } : null;
}

/** Why HEAD answers nothing: NO_COMMITS, saying whether the branch or the whole repository has none, and what to ask instead. */
export async function unbornError(repo: Repo): Promise<LoreError> {
  let branch = readHeadBranch(repo);
  if (branch === undefined) branch = (await gitMaybe(["symbolic-ref", "-q", "--short", "HEAD"], { cwd: repo.root }))?.toString("utf8").trim() || null;
  const other = await someCommit(repo);
  if (!other) return new LoreError("NO_COMMITS", `This repository has no commits yet${branch ? ` (HEAD is the branch ${branch}, unborn)` : ""}; commit something and ask again.`);
  return new LoreError(
    "NO_COMMITS",
    `HEAD is the unborn branch ${branch ?? "(unknown)"}: it has no commits yet, though the repository has (${other.name} is at ${other.sha.slice(0, 12)}). Ask as of a commit that exists (--until ${other.name}), or commit on ${branch ?? "this branch"} first.`,
  );
}
