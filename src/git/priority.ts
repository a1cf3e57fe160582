/**
 * Questions first: work done for nobody in particular (the daemon's background pass) runs its
 * git children at the lowest CPU and I/O priority, and waits while questions are being answered.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { findOnPath } from "../on-path.ts";

/**
 * A question with a deadline runs in a lane of its own: asked-for until the deadline, then
 * background work (its later git niced, its running git reniced) while it goes on for the next ask.
 */
export class Lane {
  background = false;
  /** Set when the work is given up (an answer in a process that ends with it): its git is ended, any new one too. */
  stopped = false;
  readonly children = new Set<{ pid?: number }>();

  /** From now on this work is nobody's in particular: its git runs at the background's priority. */
  toBackground(): void {
    this.background = true;
    for (const c of this.children) if (c.pid) lowerPriority(c.pid);
  }
}

function lowerPriority(pid: number): void {
  try {
    setPriority(pid, 19);
  } catch {}
  try {
    // Its own session's autogroup too (see AUTOGROUP below): nice alone orders only within a session.
    writeFileSync(`/proc/${pid}/autogroup`, "19");
  } catch {}
}

const backgroundWork = new AsyncLocalStorage<true | Lane>();
let questions = 0;
let waiters: (() => void)[] = [];
/** When the last question was answered (Date.now()). */
let lastAnswered = 0;

/** A question answered less than this long ago means a person (or an agent) is asking now. */
const ASKING_MS = 1000;
/** How long background work done in this process rests after each step while they are. */
const REST_MS = 4;

/** Runs `fn` as background work: every git it starts (however deep in its calls) is niced. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, fn);
}

export function isBackground(): boolean {
  const s = backgroundWork.getStore();
  return s === true || (s !== undefined && s.background);
}

/** Runs `fn` in `lane`: every git it starts is the lane's, and niced once the lane turns background. */
export function inLane<T>(lane: Lane, fn: () => Promise<T>): Promise<T> {
  return backgroundWork.run(lane, fn);
}

/** The lane of the work running now, if any (run.ts adds the git it starts). */
export function currentLane(): Lane | undefined {
  const s = backgroundWork.getStore();
  return s === true ? undefined : s;
}

/** A question starts being answered: background work pauses at its next step. */
export function questionBegins(): void {
  questions++;
}

export function questionEnds(): void {
  questions = Math.max(0, questions - 1);
  lastAnswered = Date.now();
  if (questions === 0) {
    const wake = waiters;
    waiters = [];
    for (const w of wake) w();
  }
}

/** Resolves at once when no question is being answered, else when the last one ends. Only background work waits. */
export function questionsAnswered(): Promise<void> {
  if (questions === 0 || !isBackground()) return Promise.resolve();
  return new Promise((resolve) => waiters.push(resolve));
}

/**
 * For background work this process does itself (the change index parses git's output here, not in
 * a niced git): waits out the questions in flight, then rests a little after each step while
 * questions came lately, so whoever asks keeps a core to themselves.
 */
export async function yieldToQuestions(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
  await questionsAnswered();
  if (isBackground() && Date.now() - lastAnswered < ASKING_MS) await new Promise<void>((r) => setTimeout(r, REST_MS));
}

let prefix: string[] | undefined;

/**
 * Linux's autogroup scheduling (on by default on most desktops) shares the CPU fairly between
 * sessions first, and nice orders processes only within a session. git starts in a session of
 * its own (run.ts spawns it detached), so its nice alone would leave it an equal of the user's
 * terminal, and of the CLI asking a question. Background git therefore nices its session's
 * group too. The script is constant; git's words come after it as its arguments ("$@"), which
 * the shell never parses.
 */
const AUTOGROUP = "/proc/self/autogroup";
const NICE_OWN_GROUP = 'echo 19 > /proc/self/autogroup 2>/dev/null; exec "$@"';

/** What goes before `git` for background work: `nice -n 19`, and `ionice -c3` (idle I/O; -t: go on where that is not allowed) where there is one. */
export function lowPriorityPrefix(): string[] {
  if (prefix === undefined) {
    const nice = findOnPath("nice");
    const ionice = findOnPath("ionice");
    const sh = findOnPath("sh");
    const ownGroup = existsSync(AUTOGROUP) && sh ? [sh, "-c", NICE_OWN_GROUP, "sh"] : [];
    prefix = [...ownGroup, ...(ionice ? [ionice, "-c3", "-t"] : []), ...(nice ? [nice, "-n", "19"] : [])];
  }
  return prefix;
}
