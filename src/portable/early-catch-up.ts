/**
 * The git of an import's catch-up, started as soon as the manifest is checked: what it prints depends
 * only on the manifest's head and HEAD, not on the file, so git works while lore checks the file, and
 * the catch-up then reads output already written. Nothing is stored from it before the checks pass;
 * a git nobody takes is ended (dropPrefetched).
 */
import { isPartialClone, currentHead, type Repo } from "../git/repo.ts";
import { prefetch } from "../git/prefetch.ts";
import { NOTES_REFS_ARGS } from "../index/agent-notes.ts";
import { NUMSTAT_ARGS } from "../index/churn.ts";
import { PATCH_ARGS } from "../index/code-words.ts";
import { LOG_ARGS } from "../index/history.ts";
import { refsStamp } from "../index/provenance.ts";
import { TAG_REFS_ARGS } from "../index/releases.ts";
import { mainWorktree } from "../index/shared-index.ts";
import { lsTreeArgs } from "../index/tree.ts";
import type { Manifest } from "./manifest.ts";

/**
 * Starts, for the commits between the file's head and the HEAD the index follows, what the catch-up asks
 * git: that the old head is a commit, the history (git log --raw), the tree, line churn (--numstat), the
 * change index (-p) and the tags and notes refs, each with the arguments the index update gives it.
 */
export async function startCatchUp(repo: Repo, m: Manifest): Promise<void> {
  const primary = mainWorktree(repo);
  if (isPartialClone(primary)) return;
  const head = await currentHead(primary);
  if (!head || head === m.head) return;
  const opts = { cwd: primary.root };
  const since = [head, "--not", m.head, "--"];
  for (const args of [["cat-file", "-e", `${m.head}^{commit}`], [...LOG_ARGS, ...since], lsTreeArgs(head), [...NUMSTAT_ARGS, ...since], [...PATCH_ARGS, ...since]]) await prefetch(args, opts);
  // The tags and notes refs (provenance): taken only while the refs are as they were when git read them.
  const stamp = refsStamp(primary);
  const same = () => refsStamp(primary) === stamp;
  for (const args of [TAG_REFS_ARGS, NOTES_REFS_ARGS]) await prefetch(args, opts, same);
}
