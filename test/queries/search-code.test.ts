/**
 * code search compared with `git log -S/-G`: answered through git, then from the change index
 * (filled, half-filled, stale), and the index's posting lists.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TestRepo, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { buildSearchRepos } from "../helpers/search-repos.ts";
import { pickaxeTruth } from "../helpers/search-truth.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { updateCodeWords } from "../../src/index/code-words.ts";
import { codeSearchStats } from "../../src/queries/run/search-code.ts";
import { sameBothWays, sameBothWaysAll } from "../helpers/code-search.ts";
import { decodePostings, PostingWriter } from "../../src/store/code-postings.ts";

let story: TestRepo;
let gen = "";

beforeAll(async () => {
  isolateHome();
  ({ story, gen } = await buildSearchRepos());
}, 120_000);

/** Checks lore's code search for `text` against git on `dir`. */
async function sameAsPickaxe(dir: string, text: string, opts: { regex?: boolean; oldest?: boolean; paths?: string[] } = {}) {
  const truth = pickaxeTruth(dir, text, { regex: opts.regex, reverse: opts.oldest, paths: opts.paths });
  const r = await ask("search", dir, { query: text, code: true, regex: opts.regex ?? false, oldest: opts.oldest ?? false, paths: opts.paths, limit: 10000 });
  expect(r.results.map((x: any) => x.sha)).toEqual(truth.map((t) => t.sha.slice(0, 12)));
  expect(r.results.map((x: any) => x.files.map((f: any) => f.path))).toEqual(truth.map((t) => t.files));
  const few = await ask("search", dir, { query: text, code: true, regex: opts.regex ?? false, oldest: opts.oldest ?? false, paths: opts.paths, limit: 2 });
  expect(few.results.map((x: any) => x.sha)).toEqual(truth.slice(0, 2).map((t) => t.sha.slice(0, 12)));
  expect(few.truncated).toBe(truth.length > 2);
  return r;
}

describe("code search", () => {
  test("equals git log -S and -G on the story repository, with occurrence counts", async () => {
    const r = await sameAsPickaxe(story.dir, "util");
    await sameAsPickaxe(story.dir, "util", { oldest: true });
    await sameAsPickaxe(story.dir, "a0", { paths: ["src"] });
    await sameAsPickaxe(story.dir, "u[0-9]", { regex: true });
    await sameAsPickaxe(story.dir, "odd", { regex: true });
    const posix = await sameAsPickaxe(story.dir, "\\<u[[:digit:]]", { regex: true });
    expect(posix.results.find((x: any) => x.subject === "Add util").files).toEqual([{ path: "src/util.js", added: 40, removed: 0 }]);
    const add = r.results.find((x: any) => x.subject === "Main uses util");
    expect(add.files.find((f: any) => f.path === "src/main.js")).toEqual({ path: "src/main.js", added: 1, removed: 0 });
  });

  test("equals git log -S and -G on a generated history", async () => {
    for (const t of ["cache", "tokenQueue", "value"]) await sameAsPickaxe(gen, t);
    await sameAsPickaxe(gen, "hash", { oldest: true });
    await sameAsPickaxe(gen, "queue[A-Z]", { regex: true });
  });

  test("a commit that changed the text in many files lists 50 and says how many", async () => {
    const r = new TestRepo();
    for (let i = 0; i < 60; i++) r.write(`f${i}.txt`, "needle needle\n");
    r.commit("sweep");
    const a = await ask("search", r.dir, { query: "needle", code: true });
    expect(a.results[0].files).toHaveLength(50);
    expect(a.results[0].filesTotal).toBe(60);
    expect(a.results[0].files[0]).toEqual({ path: "f0.txt", added: 2, removed: 0 });
  });

  test("an invalid regex and an empty text are BAD_ARGUMENT", async () => {
    await expect(ask("search", story.dir, { query: "a[", code: true, regex: true })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("search", story.dir, { query: "", code: true })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
  });
});

describe("the change index", () => {
  /** Fills the change index for `dir`, as the daemon's background pass does. */
  async function fill(dir: string) {
    const ix = await indexFor(dir);
    await ix.refresh();
    await updateCodeWords(ix);
    return ix;
  }

  test("it answers every word of a generated history's code as git does, counts included", async () => {
    await fill(gen);
    const words = [...new Set(runGit(gen, ["grep", "-IohE", "[A-Za-z_][A-Za-z0-9_]{2,}", "HEAD"]).split("\n").filter(Boolean))].sort().filter((_, i) => i % 9 === 0).slice(0, 25);
    expect(words.length).toBeGreaterThan(10);
    await sameBothWaysAll(gen, [...words, "ach", "ueue"]);
    await sameBothWays(gen, "value", { oldest: true });
  }, 120_000);

  test("after the pass, code search answers from it exactly as git log -S, newest or oldest first", async () => {
    await fill(gen);
    await fill(story.dir);
    const before = codeSearchStats.fromIndex;
    for (const t of ["cache", "tokenQueue", "value", "ueue"]) await sameAsPickaxe(gen, t);
    expect(codeSearchStats.fromIndex - before).toBe(8);
    await sameAsPickaxe(gen, "hash", { oldest: true });
    await sameAsPickaxe(story.dir, "util");
    await sameAsPickaxe(story.dir, "odd", { oldest: true });
  });

  test("renamed files are paired as git pairs them, and binary files are counted in their blobs", async () => {
    const r = new TestRepo();
    r.write("a.txt", "one needle here\nand more lines\nto keep\nthe rename\nsimilar\n").commit("add");
    r.remove("a.txt").write("b.txt", "one needle here\nand more lines\nto keep\nthe rename\nsimilar!\n").commit("rename with an edit");
    r.remove("b.txt").write("c.txt", "needle needle\n").commit("a rename git does not pair");
    const bin = (...parts: string[]) => new Uint8Array([0, 1, 2, ...Buffer.from(parts.join("\0"))]);
    r.write("bin.dat", bin("needle")).commit("binary with the needle");
    r.write("bin.dat", bin("needle", "other")).commit("binary, the needle kept");
    r.write("bin.dat", bin("needles", "needle", "xneedle")).commit("binary, more needles");
    await fill(r.dir);
    expect(pickaxeTruth(r.dir, "needle").map((t) => t.files)).toEqual([["bin.dat"], ["bin.dat"], ["b.txt", "c.txt"], ["a.txt"]]);
    await sameAsPickaxe(r.dir, "needle");
    await sameBothWays(r.dir, "needle");
    await sameBothWays(r.dir, "eedl", { oldest: true });
  });

  test("a commit whose files the index cannot name is confirmed by git", async () => {
    const r = new TestRepo();
    // An order file makes git list the diff's files otherwise than by path.
    r.write("order.txt", "z.js\n*\n");
    runGit(r.dir, ["config", "diff.orderFile", "order.txt"]);
    r.write("a.js", "const needle = 1;\n").write("z.js", "needle();\n").commit("two files, z first");
    r.write("a.js", "const needle = 2;\nneedle;\n").commit("one file");
    await fill(r.dir);
    const ix = await indexFor(r.dir);
    expect([...ix.store.search.codeUnsure().keys()]).toHaveLength(1);
    await sameAsPickaxe(r.dir, "needle");
    await sameBothWays(r.dir, "needle");
  });

  test("a pass that did not finish is not counted twice when the next one reads its commits again", async () => {
    const r = new TestRepo();
    r.write("a.js", "const needle = 1;\n").commit("add");
    const ix = await fill(r.dir);
    const first = ix.store.meta("codeHead")!;
    r.write("a.js", "const needle = 1;\nneedle(needle);\n").commit("call it");
    await fill(r.dir);
    // As if the daemon stopped after the second pass saved its batch, before it marked the head.
    ix.store.setMeta("codeHead", first);
    ix.store.db.prepare("UPDATE meta SET value = '1' WHERE key = 'codeBatches'").run();
    await fill(r.dir);
    await sameBothWays(r.dir, "needle");
    // And a first pass that did not finish starts over.
    ix.store.setMeta("codeHead", undefined);
    await fill(r.dir);
    await sameBothWays(r.dir, "needle");
    expect((await ask("search", r.dir, { query: "needle", code: true })).results[0].files).toEqual([{ path: "a.js", added: 2, removed: 0 }]);
  });

  test("read a batch at a time in the answer's order, it stops early and still answers as git does, across passes", async () => {
    const dir = join(tempDir(), "batched");
    runGit(tempDir(), ["clone", "-q", gen, dir]);
    runGit(dir, ["reset", "-q", "--hard", "HEAD~60"]);
    const ix = await indexFor(dir);
    await ix.refresh();
    await updateCodeWords(ix, 15);
    runGit(dir, ["reset", "-q", "--hard", "origin/HEAD"]);
    await ix.refresh();
    await updateCodeWords(ix, 9);
    expect(ix.store.search.codeIndexView().spans.length).toBeGreaterThan(6);
    const words = [...new Set(runGit(dir, ["grep", "-IohE", "[A-Za-z_][A-Za-z0-9_]{2,}", "HEAD"]).split("\n").filter(Boolean))].sort().filter((_, i) => i % 101 === 0);
    for (const w of [...words, "value", "cache", "ueue"]) {
      // `git log --reverse` lists the same commits backwards: one git run per word, not two (116 took 11 s).
      const newest = pickaxeTruth(dir, w).map((t) => t.sha.slice(0, 12));
      for (const oldest of [false, true]) {
        const truth = oldest ? [...newest].reverse() : newest;
        for (const limit of [1, 3]) {
          const r = await ask("search", dir, { query: w, code: true, limit, oldest });
          expect({ w, limit, oldest, shas: r.results.map((x: any) => x.sha), truncated: r.truncated }).toEqual({ w, limit, oldest, shas: truth.slice(0, limit), truncated: truth.length > limit });
        }
      }
    }
    const before = codeSearchStats.batchesRead;
    await sameAsPickaxe(dir, "value");
    const all = codeSearchStats.batchesRead - before;
    await ask("search", dir, { query: "value", code: true, limit: 1 });
    expect(codeSearchStats.batchesRead - before - all).toBeLessThan(all / 3);
  }, 60_000);

  test("while the first pass runs, the newest commits it has read answer when the answer lies within them", async () => {
    const dir = join(tempDir(), "halfway");
    runGit(tempDir(), ["clone", "-q", gen, dir]);
    const ix = await indexFor(dir);
    await ix.refresh();
    await updateCodeWords(ix, 9);
    // As the pass leaves the index after its first three batches (newest first): no codeHead yet.
    const db = (ix.store as any).db;
    db.exec("DELETE FROM code_batches WHERE batch > 3; DELETE FROM code_postings WHERE key >= 4 * 4294967296; DELETE FROM code_unsure");
    ix.store.setMeta("codeHead", undefined);
    ix.store.setMeta("codeBatches", undefined);
    const read = ix.store.search.codeIndexView().spans.reduce((n, b) => n + b.commits, 0);
    const newest = runGit(dir, ["log", "--format=%H", "-n", String(read)]).trim().split("\n");
    const stats = { ...codeSearchStats };
    // A word the newest commits changed often: answered from them. One only older commits changed: git.
    await sameAsPickaxe(dir, "value");
    const rare = pickaxeTruth(dir, "tokenQueue").map((t) => t.sha);
    expect(rare.length).toBeGreaterThan(0);
    if (newest.includes(rare[0]!)) throw new Error("tokenQueue was meant to be older than the batches kept");
    await sameAsPickaxe(dir, "tokenQueue");
    await sameAsPickaxe(dir, "value", { oldest: true });
    // sameAsPickaxe asks twice: limit 10000 (git: more than the newest hold) and 2 (the index).
    expect({ fromIndex: codeSearchStats.fromIndex - stats.fromIndex, throughGit: codeSearchStats.throughGit - stats.throughGit }).toEqual({ fromIndex: 1, throughGit: 5 });
  });

  test("a commit after the pass goes to git until the next pass adds it, then the index answers again", async () => {
    const r = new TestRepo();
    r.write("a.js", "const haystack = 1;\n").commit("add");
    await fill(r.dir);
    r.write("a.js", "const haystack = 1;\nconst needleTwo = 2;\n").commit("add needleTwo");
    const before = { ...codeSearchStats };
    await sameAsPickaxe(r.dir, "needleTwo");
    expect(codeSearchStats.throughGit - before.throughGit).toBe(2);
    await fill(r.dir);
    await sameAsPickaxe(r.dir, "needleTwo");
    expect(codeSearchStats.fromIndex - before.fromIndex).toBe(2);
  });
});

describe("posting lists", () => {
  test("entries survive the encoding: gaps either way, several files, binary, large counts", () => {
    const w = new PostingWriter();
    const written: [number, number, number, number, boolean][] = [
      [1, 0, 1, 0, false],
      [2, 3, 0, 2, false],
      [2, 9, 200, 1, false],
      [130, 7, 3, 3, true],
      [20001, 0, 4, 0, false],
      [5, 2, 1, 1, false],
      [2 ** 31 - 5, 1000, 70000, 0, false],
    ];
    // A commit's files one by one, its entry closed when the next commit's begins.
    written.forEach(([id, ord, plus, minus, binary], i) => {
      w.file(ord, plus, minus, binary);
      if (written[i + 1]?.[0] !== id) w.endCommit(id);
    });
    const read: typeof written = [];
    decodePostings(w.done(), (...e) => read.push(e));
    expect(read).toEqual(written);
  });

  test("a commit that changed a word in one file takes two bytes", () => {
    const w = new PostingWriter();
    w.file(1, 1, 0, false);
    w.endCommit(10);
    w.file(0, 2, 1, false);
    w.endCommit(11);
    expect(w.done().length).toBe(4);
  });
});
