/** Code search from the change index, checked against the same question answered through git. */
import { expect } from "bun:test";
import { ask } from "./lore.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { codeSearchStats } from "../../src/queries/run/search-code.ts";

/** The answer from the change index equals the same question answered through git (the index set aside), counts included. */
export async function sameBothWays(dir: string, text: string, opts: { oldest?: boolean } = {}) {
  const ix = await indexFor(dir);
  const question = { query: text, code: true, limit: 10000, ...opts };
  const before = codeSearchStats.fromIndex;
  const fromIndex = await ask("search", dir, question);
  expect({ text, fromIndex: codeSearchStats.fromIndex - before }).toEqual({ text, fromIndex: 1 });
  const head = ix.store.meta("codeHead");
  ix.store.setMeta("codeHead", undefined);
  try {
    expect({ text, ...fromIndex }).toEqual({ text, ...(await ask("search", dir, question)) });
  } finally {
    ix.store.setMeta("codeHead", head);
  }
}

