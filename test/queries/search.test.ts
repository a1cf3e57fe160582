/**
 * message search compared with git: it finds at least what `git log -i --all-match --grep` finds
 * with whole words (and nothing without every word); and the snippet that shows the match.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { ALICE, BOB, CAROL, TestRepo, runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { buildSearchRepos } from "../helpers/search-repos.ts";
import { grepWholeWords, hasWord, messages } from "../helpers/search-truth.ts";
import { runtime } from "../../src/runtime/index.ts";
import { indexPath } from "../../src/index/index-file.ts";
import { closeAll } from "../../src/index/indexes.ts";
import { snippet, snippetTerms } from "../../src/queries/run/snippet.ts";
import { queryWords } from "../../src/queries/run/fts-query.ts";

let story: TestRepo;
let gen = "";

beforeAll(async () => {
  isolateHome();
  ({ story, gen } = await buildSearchRepos());
}, 120_000);

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

/** Checks lore's message search for `words` against git on `dir`. */
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
