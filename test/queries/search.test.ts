/**
 * search compared with git: message search finds at least what `git log -i --all-match --grep`
 * finds with whole words (and nothing without every word); code search is `git log -S/-G`.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { ALICE, BOB, CAROL, TestRepo, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { grepWholeWords, hasWord, messages, pickaxeTruth } from "../helpers/search-truth.ts";
import { runtime } from "../../src/runtime/index.ts";
import { indexPath } from "../../src/index/index-file.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { updateCodeWords } from "../../src/index/code-words.ts";
import { codeSearchStats } from "../../src/queries/run/search-code.ts";
import { sameBothWays } from "../helpers/code-search.ts";
import { snippet, snippetTerms } from "../../src/queries/run/snippet.ts";
import { queryWords } from "../../src/queries/run/fts-query.ts";
import { decodePostings, PostingWriter } from "../../src/store/code-postings.ts";

let story: TestRepo;
let gen = "";

beforeAll(async () => {
  isolateHome();
  story = buildStoryRepo();
  gen = join(tempDir(), "generated");
  await generateRepo({ dir: gen, commits: 400, files: 80, seed: 12 });
}, 120_000);


/** Checks lore's message search for `words` against git on `dir`. */
/** Each commit's subject, message and place in git log order, by full sha. */
function logOrder(dir: string): Map<string, { subject: string; message: string; at: number }> {
  const out = new Map<string, { subject: string; message: string; at: number }>();
  const records = runGit(dir, ["log", "--format=%H%x1f%s%x1f%B%x1e"]).split("\x1e").slice(0, -1);
  records.forEach((rec, at) => {
    const [sha, subject, message] = rec.replace(/^\n/, "").split("\x1f");
    out.set(sha!, { subject: subject!, message: message!, at });
  });
  return out;
}

async function sameAsGrep(dir: string, words: string[]) {
  const r = await ask("search", dir, { query: words.join(" "), limit: 10000 });
  const mine = r.results.map((x: any) => x.sha);
  const msgs = messages(dir);
  const full = [...msgs.keys()];
  for (const sha of grepWholeWords(dir, words)) expect(mine).toContain(sha.slice(0, 12));
  for (const sha of mine) {
    const msg = msgs.get(full.find((f) => f.startsWith(sha))!)!;
    for (const w of words) expect(hasWord(msg, w)).toBe(true);
  }
  expect(r.total).toBe(mine.length);
  return r;
}

describe("message search", () => {
  test("finds every commit git log --grep finds with whole words, each with every word, on the story repository", async () => {
    for (const q of [["story"], ["main"], ["main", "util"], ["util"], ["default"], ["side", "main"], ["why"]]) await sameAsGrep(story.dir, q);
  });

  test("finds what git log --all-match --grep finds on a generated history", async () => {
    for (const q of [["tree"], ["update", "cache"], ["merge", "branch"], ["hash"], ["rename"], ["window", "token"]]) {
      const r = await sameAsGrep(gen, q);
      expect(r.total).toBeGreaterThan(0);
    }
  });

  test("PATH lists what git log -- PATH lists on a generated history, the merges git shows for it included", async () => {
    const dirs = [...new Set(runGit(gen, ["ls-files"]).split("\n").filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))))].slice(0, 4);
    let merges = 0;
    for (const d of dirs)
      for (const w of ["merge", "update"]) {
        const r = await ask("search", gen, { query: w, paths: [d], limit: 10000 });
        const git = grepWholeWords(gen, [w], ["HEAD", "--", d]).map((s) => s.slice(0, 12));
        expect(new Set(r.results.map((x: any) => x.sha))).toEqual(new Set(git));
        expect(r.total).toBe(git.length);
        merges += r.results.filter((x: any) => x.subject.startsWith("Merge")).length;
      }
    expect(merges).toBeGreaterThan(0);
  });

  test("a phrase is adjacent words, a word* a prefix, and the snippet marks the matches", async () => {
    const phrase = await ask("search", story.dir, { query: '"uses util"' });
    expect(phrase.results.map((x: any) => x.subject)).toEqual(["Main uses util"]);
    const notAdjacent = await ask("search", story.dir, { query: '"util uses"' });
    expect(notAdjacent.total).toBe(0);
    const prefix = await ask("search", story.dir, { query: "expl*" });
    expect(prefix.results.map((x: any) => x.subject)).toEqual(["Start the story"]);
    expect(prefix.results[0].snippet).toContain("«explains»");
    for (const x of (await ask("search", story.dir, { query: "main" })).results) expect(x.snippet.length).toBeLessThanOrEqual(160);
  });

  test("FTS5 syntax in a query is searched as text, never as syntax", async () => {
    for (const q of ["main OR util", "NEAR(main util)", "-util", "main AND", '"unclosed main', "main*util", "(main) ^util", "story:", "a0; default"]) {
      const r = await ask("search", story.dir, { query: q, limit: 100 });
      const msgs = messages(story.dir);
      for (const x of r.results) {
        const msg = [...msgs.entries()].find(([s]) => s.startsWith(x.sha))![1];
        for (const w of q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean)) expect(hasWord(msg, w)).toBe(true);
      }
    }
    expect((await ask("search", story.dir, { query: "main OR util" })).total).toBe(0);
  });

  test("an empty query, or one with no word, is BAD_ARGUMENT", async () => {
    for (const q of ["", "   ", '"', "()*-"]) await expect(ask("search", story.dir, { query: q })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
  });

  test("PATH, author, since and until filter as git log does", async () => {
    const byPath = await ask("search", story.dir, { query: "main", paths: ["test"], limit: 100 });
    const gitPath = grepWholeWords(story.dir, ["main"], ["--", "test"]);
    expect(new Set(byPath.results.map((x: any) => x.sha))).toEqual(new Set(gitPath.map((s) => s.slice(0, 12))));
    const byAuthor = await ask("search", story.dir, { query: "main", author: "CAROL", limit: 100 });
    expect(byAuthor.results.map((x: any) => x.author)).toEqual(byAuthor.results.map(() => CAROL.name));
    expect(byAuthor.total).toBeGreaterThan(0);
    const all = await ask("search", story.dir, { query: "main", limit: 100, newest: true });
    const old = await ask("search", story.dir, { query: "main", until: "HEAD~4", limit: 100, newest: true });
    expect(old.total).toBeLessThan(all.total);
    expect(old.results.map((x: any) => x.sha)).toEqual(grepWholeWords(story.dir, ["main"], ["HEAD~4"]).map((s) => s.slice(0, 12)));
    const since = await ask("search", story.dir, { query: "main", since: "@1700000400", limit: 100 });
    expect(since.total).toBeLessThan(all.total);
  });

  test("--newest lists in git log order; relevance puts every word in the subject first, then the shorter, then the newer", async () => {
    const r = new TestRepo();
    const sha = (subject: string, body = "") => {
      r.write("a.txt", subject + body).commit(body ? `${subject}\n\n${body}` : subject);
      return r.git("rev-parse", "--short=12", "HEAD").trim();
    };
    const a = sha("Fix timeout");
    const b = sha("Refactor the pool", "fix timeout here");
    const c = sha("Fix timeout in the retry loop");
    const d = sha("Fix timeout");
    const e = sha("timeout: fix timeout, timeout and timeout again");
    const f = sha("Fix the build", "See timeout");
    const newest = await ask("search", r.dir, { query: "timeout", newest: true });
    expect(newest.results.map((x: any) => x.sha)).toEqual(r.git("log", "--format=%h", "--abbrev=12").trim().split("\n"));
    const ranked = await ask("search", r.dir, { query: "fix timeout" });
    expect(ranked.results.map((x: any) => x.sha)).toEqual([d, a, c, e, f, b]);
  });

  test("relevance follows its rule on a generated history: subject first, then fewer words, then git log order", async () => {
    const order = logOrder(gen);
    for (const words of [["update", "cache"], ["merge"], ["fix"]]) {
      const r = await ask("search", gen, { query: words.join(" "), limit: 10000 });
      const keys = r.results.map((x: any) => {
        const full = [...order.keys()].find((s) => s.startsWith(x.sha))!;
        const { subject, message, at } = order.get(full)!;
        const inSubject = words.every((w) => hasWord(subject, w));
        return [inSubject ? 0 : 1, queryWords(inSubject ? subject : message).length, at];
      });
      for (let i = 1; i < keys.length; i++) {
        const [p, q] = [keys[i - 1]!, keys[i]!];
        expect(p[0]! < q[0]! || (p[0] === q[0] && (p[1]! < q[1]! || (p[1] === q[1] && p[2]! < q[2]!)))).toBe(true);
      }
      expect(keys.length).toBeGreaterThan(0);
    }
  });

  test("accents and case are ignored, _ joins a word, and new commits are found after an update", async () => {
    const r = new TestRepo();
    r.write("a.txt", "1").commit("Café crème for the read_timeout", BOB);
    expect((await ask("search", r.dir, { query: "CAFE creme" })).total).toBe(1);
    expect((await ask("search", r.dir, { query: "read_timeout" })).total).toBe(1);
    expect((await ask("search", r.dir, { query: "timeout" })).total).toBe(0);
    r.write("a.txt", "2").commit("Another café", ALICE);
    expect((await ask("search", r.dir, { query: "cafe" })).total).toBe(2);
  });

  test("an index made before search existed is migrated and searchable", async () => {
    const r = new TestRepo();
    r.write("a.txt", "1").commit("Older words here");
    await ask("status", r.dir);
    closeAll();
    const db = runtime.openDatabase(indexPath(join(realpathSync(r.dir), ".git")));
    db.exec("DROP TABLE message_fts; DROP VIEW message_parts; DELETE FROM meta WHERE key = 'messagesIndexed'; DROP TABLE line_histories; DROP TABLE code_words; DROP TABLE code_postings; DROP TABLE code_unsure; DROP TABLE code_batches; DROP TABLE blame_failures; PRAGMA user_version = 3");
    db.close();
    expect((await ask("search", r.dir, { query: "older" })).total).toBe(1);
  });
});

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
    for (const w of [...words, "ach", "ueue"]) await sameBothWays(gen, w);
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
    for (const w of [...words, "value", "cache", "ueue"])
      for (const oldest of [false, true]) {
        const truth = pickaxeTruth(dir, w, { reverse: oldest }).map((t) => t.sha.slice(0, 12));
        for (const limit of [1, 3]) {
          const r = await ask("search", dir, { query: w, code: true, limit, oldest });
          expect({ w, limit, oldest, shas: r.results.map((x: any) => x.sha), truncated: r.truncated }).toEqual({ w, limit, oldest, shas: truth.slice(0, limit), truncated: truth.length > limit });
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

describe("the snippet", () => {
  test("is one line of at most 160 characters around the first match, every match marked, accents and case folded", () => {
    const long = "Intro words ".repeat(30) + "then the Café opens\n\nand the cafe closes " + "tail ".repeat(40);
    const s = snippet(long, snippetTerms("CAFE"));
    expect(s.length).toBeLessThanOrEqual(160);
    expect(s).toStartWith("…");
    expect(s).toContain("«Café»");
    expect(s).toContain("«cafe»");
    expect(s).not.toContain("\n");
    expect(snippet("Add read_timeout option", snippetTerms("read_time*"))).toBe("Add «read_timeout» option");
    expect(snippet("x".repeat(300), snippetTerms("nothing")).length).toBeLessThanOrEqual(160);
  });
});
