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

/**
 * The processes still working in `dir` once a killed one has had `ms` to die: SIGKILL is delivered at
 * once, but a process under load may take a moment to go, and a lore that exits quickly (the compiled
 * binary) can be gone first. A git that was never ended (the slow ones here sleep a minute) is still there.
 */
export async function leftIn(dir: string, ms = 2000): Promise<number[]> {
  const until = Date.now() + ms;
  let pids = runningIn(dir);
  while (pids.length > 0 && Date.now() < until) {
    await Bun.sleep(50);
    pids = runningIn(dir);
  }
  return pids;
}
