/** Where a repository's index lives: $LORE_HOME/repos/<16 hex of sha256(root)>/index.db. */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { loreHome } from "../home.ts";

export function indexPath(root: string): string {
  const id = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return join(loreHome(), "repos", id, "index.db");
}
