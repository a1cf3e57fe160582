/** The git processes lore started, tracked so that a stopping daemon, or a question given up at its deadline, ends them and what they started. */
import type { spawn } from "node:child_process";
import { currentLane, type Lane } from "./priority.ts";

/** The gits lore ended itself: their exit says nothing about the repository. */
const ended = new WeakSet<object>();

/** Whether lore ended this git (a deadline given up, a daemon stopping, a timeout), rather than git failing. */
export function endedByLore(child: object): boolean {
  return ended.has(child);
}

/** Ends git and anything it started (a hung helper would keep lore's pipes open). */
export function killTree(child: ReturnType<typeof spawn>): void {
  ended.add(child);
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
}

/** The git processes running now: a stopping daemon ends them (a commit-graph write must not go on after it). */
const running = new Set<ReturnType<typeof spawn>>();

export function track(child: ReturnType<typeof spawn>): void {
  running.add(child);
  // A question with a deadline keeps its git, to renice it when the deadline passes.
  const lane = currentLane();
  lane?.children.add(child);
  if (lane?.stopped) killTree(child);
  const gone = () => {
    running.delete(child);
    lane?.children.delete(child);
  };
  child.on("close", gone);
  child.on("error", gone);
}

/** Gives up the work of `lane`: its git ends now, and any it starts later at once. */
export function stopLane(lane: Lane): void {
  lane.stopped = true;
  for (const child of lane.children) killTree(child as ReturnType<typeof spawn>);
}

/** Ends every git this process started that is still running (with whatever each started). */
export function endGitChildren(): number {
  const n = running.size;
  for (const child of running) killTree(child);
  running.clear();
  return n;
}
