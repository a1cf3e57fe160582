/** Code search from the change index, checked against the same question answered through git. */
import { expect } from "bun:test";
import { ask } from "./lore.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { codeSearchStats } from "../../src/queries/run/search-code.ts";

/** The answer from the change index equals the same question answered through git (the index set aside), counts included. */
export async function sameBothWays(dir: string, text: string, opts: { oldest?: boolean } = {}) {
  await sameBothWaysAll(dir, [text], opts);
}

/**
 * sameBothWays for many texts, the same checks for each: the index answers them one by one, then git
 * answers them two at a time (git's -S walk is the cost, and two use both cores of a small machine).
 */
export async function sameBothWaysAll(dir: string, texts: string[], opts: { oldest?: boolean } = {}) {
  const ix = await indexFor(dir);
  const question = (text: string) => ({ query: text, code: true, limit: 10000, ...opts });
  const fromIndex: unknown[] = [];
  for (const text of texts) {
    const before = codeSearchStats.fromIndex;
    fromIndex.push(await ask("search", dir, question(text)));
    expect({ text, fromIndex: codeSearchStats.fromIndex - before }).toEqual({ text, fromIndex: 1 });
  }
  const head = ix.store.meta("codeHead");
  ix.store.setMeta("codeHead", undefined);
  try {
    const throughGit: unknown[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < texts.length; i = next++) throughGit[i] = await ask("search", dir, question(texts[i]!));
    };
    await Promise.all([worker(), worker()]);
    texts.forEach((text, i) => expect({ text, ...(fromIndex[i] as object) }).toEqual({ text, ...(throughGit[i] as object) }));
  } finally {
    ix.store.setMeta("codeHead", head);
  }
}
