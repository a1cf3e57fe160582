/**
 * Where lore keeps what it knows of a repository: its index at $LORE_HOME/repos/<16 hex of
 * sha256(the common git dir)>/index.db, one for all its worktrees; and each work tree's own
 * state (snapshots) under the same hash of its root, where it always was.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { loreHome } from "../home.ts";

function folder(key: string): string {
  return join(loreHome(), "repos", createHash("sha256").update(key).digest("hex").slice(0, 16));
}

/** The index shared by every worktree of the repository whose common git dir is `commonDir`. */
export function indexPath(commonDir: string): string {
  return join(folder(commonDir), "index.db");
}

/** The folder of one work tree's own state (its snapshots), keyed by its root. */
export function workTreeStateDir(root: string): string {
  return folder(root);
}
