/** Keeps provenance current: new commits marked after each history update; releases and notes read again when refs/tags or refs/notes moved. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Repo } from "../git/repo.ts";
import { shallowList } from "../git/shallow.ts";
import type { IndexContext } from "./context.ts";
import { markCommits } from "./commit-marks.ts";
import { updateReleases } from "./releases.ts";
import { updateNoteAgents } from "./agent-notes.ts";

/** Every folder and file under `dir` stamped by inode, size and time: a loose tag or notes ref written, moved or removed changes it. */
function folderStamp(dir: string, depth = 0): string {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return "-";
  }
  const parts: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    parts.push(st.isDirectory() && depth < 8 ? `${name}/(${folderStamp(path, depth + 1)})` : `${name}:${st.ino}:${st.size}:${st.mtimeMs}`);
  }
  return parts.join(",");
}

/** What tags and notes refs are, as files say it without running git (packed-refs holds the packed ones). */
export function refsStamp(repo: Repo): string {
  const packed = statSync(join(repo.commonDir, "packed-refs"), { throwIfNoEntry: false });
  return `${packed ? `${packed.ino}:${packed.size}:${packed.mtimeMs}` : "-"}|${folderStamp(join(repo.commonDir, "refs", "tags"))}|${folderStamp(join(repo.commonDir, "refs", "notes"))}`;
}

/** Brings provenance up to the stored history and the refs as they are now. */
export async function updateProvenance(ix: IndexContext, stamp: string): Promise<void> {
  markCommits(ix.store, shallowList(ix.repo));
  if (ix.store.meta("refsStamp") === stamp) return;
  // Two independent reads of the refs (each writes in its own transaction), side by side; both end before a failure is said.
  const failed = (await Promise.allSettled([updateReleases(ix), updateNoteAgents(ix)])).find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  ix.store.setMeta("refsStamp", stamp);
}
