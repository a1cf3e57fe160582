/**
 * Ctrl-C (or SIGTERM, SIGHUP) on a CLI process that runs git itself: git runs in process groups of
 * its own (so a deadline can end what it started), out of the terminal's reach, so it is ended here
 * with its spool files, and with whatever else the work names, before lore exits as a killed process would.
 */
import { dropPrefetched } from "../git/prefetch.ts";
import { endGitChildren } from "../git/processes.ts";
import { dropAllSpools } from "../git/spool.ts";

const SIGNALS = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15 } as const;

/** Runs `work` with the handlers in place; `cleanUp` is what else a signal must remove. */
export async function withInterrupt<T>(work: () => Promise<T>, cleanUp: () => void = () => {}): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    dropPrefetched();
    dropAllSpools();
    endGitChildren();
    try {
      cleanUp();
    } finally {
      // After the other handlers of this signal (suspects --bisect removes its work trees), which may exit first.
      setImmediate(() => process.exit(128 + SIGNALS[signal as keyof typeof SIGNALS]));
    }
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, onSignal);
  try {
    return await work();
  } finally {
    for (const signal of Object.keys(SIGNALS)) process.off(signal, onSignal);
  }
}
