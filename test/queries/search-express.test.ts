/** search on express compared with git: message words as git log --all-match --grep finds them, code as git log -S/-G. */
import { beforeAll, describe, expect, test } from "bun:test";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { grepWholeWords, hasWord, messages, pickaxeTruth } from "../helpers/search-truth.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { updateCodeWords } from "../../src/index/code-words.ts";
import { codeSearchStats } from "../../src/queries/run/search-code.ts";
import { sameBothWays, sameBothWaysAll } from "../helpers/code-search.ts";
import { runGit } from "../helpers/git-repo.ts";

let dir = "";

beforeAll(async () => {
  if (!hasExpress) return;
  isolateHome();
  dir = await indexedClone("express");
  await ask("status", dir);
}, 120_000);

describe.skipIf(!hasExpress)("search on express", () => {
  test("message search holds every commit git log -i --all-match --grep finds with whole words, and only commits with every word", async () => {
    const msgs = messages(dir);
    const full = [...msgs.keys()];
    for (const words of [["router"], ["fix", "typo"], ["deprecate", "req"], ["res", "send"], ["merge", "pull", "request"]]) {
      const r = await ask("search", dir, { query: words.join(" "), limit: 10000 });
      const mine = new Set(r.results.map((x: any) => x.sha));
      expect(r.total).toBe(mine.size);
      for (const sha of grepWholeWords(dir, words, [], msgs)) expect(mine.has(sha.slice(0, 12))).toBe(true);
      for (const sha of mine) {
        const msg = msgs.get(full.find((f) => f.startsWith(sha as string))!)!;
        for (const w of words) expect(hasWord(msg, w)).toBe(true);
      }
    }
  });

  test("code search equals git log -S and -G, through git and then through the change index", async () => {
    // git's answer for a question asked twice (before the index and after) is read once: a -S walk of express takes seconds.
    const truths = new Map<string, ReturnType<typeof pickaxeTruth>>();
    const same = async (text: string, opts: { regex?: boolean; oldest?: boolean; paths?: string[] } = {}, limit = 5) => {
      const key = JSON.stringify([text, opts, limit]);
      // Newest first, one past the limit is all the check reads, and git's walk stops there.
      const truth = truths.get(key) ?? pickaxeTruth(dir, text, { regex: opts.regex, reverse: opts.oldest, paths: opts.paths, max: opts.oldest ? undefined : limit + 1 });
      truths.set(key, truth);
      const r = await ask("search", dir, { query: text, code: true, limit, ...opts });
      expect(r.results.map((x: any) => x.sha)).toEqual(truth.slice(0, limit).map((t) => t.sha.slice(0, 12)));
      expect(r.results.map((x: any) => x.files.map((f: any) => f.path))).toEqual(truth.slice(0, limit).map((t) => t.files));
      expect(r.truncated).toBe(truth.length > limit);
    };
    await same("etag");
    await same("acceptsLanguages", { paths: ["lib"] });
    await same("res\\.send\\(", { regex: true });
    const ix = await indexFor(dir);
    await ix.refresh();
    await updateCodeWords(ix);
    const before = codeSearchStats.fromIndex;
    await same("etag");
    await same("sendfile", { oldest: true }, 3);
    await same("acceptsLanguages", {}, 50);
    expect(codeSearchStats.fromIndex - before).toBe(3);
  }, 120_000);

  test("the change index answers as git does for identifiers across express's code, counts included", async () => {
    const ix = await indexFor(dir);
    await ix.refresh();
    await updateCodeWords(ix);
    const words = [...new Set(runGit(dir, ["grep", "-IohE", "[A-Za-z_][A-Za-z0-9_]{2,}", "HEAD", "--", "lib"]).split("\n").filter(Boolean))].sort();
    const sample = words.filter((_, i) => i % Math.ceil(words.length / 24) === 0);
    await sameBothWaysAll(dir, [...sample, "req", "ach", "Content"]);
    await sameBothWays(dir, "etag", { oldest: true });
  }, 180_000);
});
