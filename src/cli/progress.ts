/** While an index keeps a question waiting, tells a person at a terminal how far it has got (on stderr). */
import { runtime } from "../runtime/index.ts";
import { plural } from "../plural.ts";

const FIRST_AFTER_MS = 400;
const EVERY_MS = 500;

export interface IndexState {
  state?: string;
  commitsIndexed?: number;
  filesBlamed?: number;
  filesTotal?: number;
  filesUnblamable?: number;
}

/** What a question may be waiting for: the history index, or also the blame of many files (contributors). */
export type Waits = "history" | "blame";

/** The progress line for a status, or undefined when there is nothing to say. */
export function progressLine(s: IndexState | undefined, waits: Waits): string | undefined {
  if (s?.state === "indexing") return `lore: indexing history, ${plural(s.commitsIndexed ?? 0, "commit")} so far…`;
  if (waits === "blame" && s?.filesBlamed !== undefined && s.filesTotal !== undefined && s.filesBlamed + (s.filesUnblamable ?? 0) < s.filesTotal)
    return `lore: blaming files, ${s.filesBlamed} of ${s.filesTotal} done…`;
  return undefined;
}

/**
 * Runs `work`; if it takes a while and stderr is a terminal, polls `status` and shows how
 * far the index has got on one line, cleared when the answer comes.
 */
export async function withProgress<T>(work: Promise<T>, status: () => Promise<IndexState>, waits: Waits = "history", asked?: () => Promise<string | undefined>): Promise<T> {
  let done = false;
  let shown = false;
  const show = async () => {
    if (done || !(await runtime.isTerminal(2))) return;
    while (!done) {
      // How far the work itself got (a code search walking git, a report reading files), and how far the index has.
      const own = await asked?.().catch(() => undefined);
      const index = progressLine(await status().catch(() => undefined), waits);
      if (done) break;
      const line = own ? `lore: ${own}…${index ? ` (the index: ${index.slice("lore: ".length, -1)})` : ""}` : index;
      if (line) {
        await runtime.write(2, `\r\x1b[2K${line}`);
        shown = true;
      }
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  };
  const timer = setTimeout(() => void show(), FIRST_AFTER_MS);
  try {
    return await work;
  } finally {
    done = true;
    clearTimeout(timer);
    if (shown) await runtime.write(2, "\r\x1b[2K");
  }
}
