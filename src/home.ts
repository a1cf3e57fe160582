/** Where lore keeps its state: $LORE_HOME (default ~/.lore), one index folder per repository. */
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";

export function loreHome(): string {
  return process.env.LORE_HOME || join(homedir(), ".lore");
}

/** The index file of the repository whose work tree is at `root`. */
export function indexPath(root: string): string {
  const id = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return join(loreHome(), "repos", id, "index.db");
}
