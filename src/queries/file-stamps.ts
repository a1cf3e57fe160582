/** What changes answers without moving HEAD: authors (.mailmap), how much history there is (shallow), what blame skips, tags and notes (provenance); each file stamped by inode, size and time. */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Repo } from "../git/repo.ts";
import { IGNORE_REVS_FILE } from "../index/blame.ts";
import { refsStamp } from "../index/provenance.ts";

export function fileStamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
}

export function fileStamps(repo: Repo): string {
  return `${fileStamp(join(repo.root, ".mailmap"))}|${fileStamp(join(repo.commonDir, "shallow"))}|${fileStamp(join(repo.root, IGNORE_REVS_FILE))}|${refsStamp(repo)}`;
}
