/** While a first index keeps a question waiting, tells a person at a terminal how far it has got (on stderr). */
import { runtime } from "../runtime/index.ts";

const FIRST_AFTER_MS = 400;
const EVERY_MS = 500;

interface IndexState {
  state?: string;
  commitsIndexed?: number;
}

/**
 * Runs `work`; if it takes a while and stderr is a terminal, polls `status` and shows the
 * commits indexed so far on one line, cleared when the answer comes.
 */
export async function withProgress<T>(work: Promise<T>, status: () => Promise<IndexState>): Promise<T> {
  let done = false;
  let shown = false;
  const show = async () => {
    if (done || !(await runtime.isTerminal(2))) return;
    while (!done) {
      const s = await status().catch(() => undefined);
      if (done) break;
      if (s?.state === "indexing") {
        await runtime.write(2, `\r\x1b[2Klore: indexing history, ${s.commitsIndexed ?? 0} commits so far…`);
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
