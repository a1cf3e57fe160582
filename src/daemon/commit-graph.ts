/**
 * lore's own commit-graph with changed-path Bloom filters, kept in lore's folder for the
 * repository (never in the repository): git reads the repository's objects as an
 * alternate, and every git call of that repository then runs with the same two variables.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { git } from "../git/run.ts";
import type { RepoIndex } from "../index/repo-index.ts";

/** The environment that makes git use lore's commit-graph for this repository. */
export function graphEnv(ix: RepoIndex): Record<string, string> {
  return {
    GIT_OBJECT_DIRECTORY: join(dirname(ix.store.path), "objects"),
    // git follows the repository's own objects/info/alternates from here too (alternates chain).
    GIT_ALTERNATE_OBJECT_DIRECTORIES: join(ix.repo.commonDir, "objects"),
  };
}

/**
 * Writes the graph, or adds a layer with the commits that landed since (--split: a few ms),
 * then points the index's git calls at it. Returns false when git cannot use one here.
 */
export async function refreshCommitGraph(ix: RepoIndex): Promise<boolean> {
  // git ignores commit-graphs in shallow clones.
  if (existsSync(join(ix.repo.commonDir, "shallow"))) return false;
  const env = graphEnv(ix);
  mkdirSync(join(env.GIT_OBJECT_DIRECTORY!, "info"), { recursive: true, mode: 0o700 });
  await git(["commit-graph", "write", "--reachable", "--changed-paths", "--split", "--no-progress"], { cwd: ix.repo.root, env, timeoutMs: 600_000 });
  ix.shared.gitEnv = env;
  return true;
}
