/** What else than HEAD an index's answers rest on (the .mailmap, the shallow boundary, the commit cap): when it changes, the index starts over. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { IndexOptions } from "./context.ts";

/** RepoIndex.fingerprint() of an index whose history is `whole` or not, for the primary work tree at `primaryRoot`. */
export function fingerprintOf(primaryRoot: string, commonDir: string, whole: boolean, options: IndexOptions): string {
  const shallow = whole ? "" : fileHash(join(commonDir, "shallow"));
  return `${fileHash(join(primaryRoot, ".mailmap"))}:${shallow}:${options.maxCommits ?? "all"}`;
}

function fileHash(path: string): string {
  try {
    return createHash("sha1").update(readFileSync(path)).digest("hex");
  } catch {
    return "";
  }
}
