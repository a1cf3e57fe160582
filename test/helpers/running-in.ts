/** The processes working in a folder: what a test reads to prove lore left no git running there. */
import { readdirSync, readlinkSync } from "node:fs";

/** The processes whose working folder is `dir` (a git lore left running there). */
export function runningIn(dir: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readlinkSync(`/proc/${p}/cwd`) === dir) pids.push(Number(p));
    } catch {}
  }
  return pids;
}
