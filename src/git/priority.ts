/**
 * Questions first: work done for nobody in particular (the daemon's background pass) runs its
 * git children at the lowest CPU and I/O priority, and waits while questions are being answered.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const backgroundWork = new AsyncLocalStorage<true>();
let questions = 0;
let waiters: (() => void)[] = [];

/** Runs `fn` as background work: every git it starts (however deep in its calls) is niced. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, fn);
}

export function isBackground(): boolean {
  return backgroundWork.getStore() === true;
}

/** A question starts being answered: background work pauses at its next step. */
export function questionBegins(): void {
  questions++;
}

export function questionEnds(): void {
  questions = Math.max(0, questions - 1);
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

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

let prefix: string[] | undefined;

/** What goes before `git` for background work: `nice -n 19`, and `ionice -c3` (idle I/O; -t: go on where that is not allowed) where there is one. */
export function lowPriorityPrefix(): string[] {
  if (prefix === undefined) {
    const nice = onPath("nice");
    const ionice = onPath("ionice");
    prefix = [...(ionice ? [ionice, "-c3", "-t"] : []), ...(nice ? [nice, "-n", "19"] : [])];
  }
  return prefix;
}
