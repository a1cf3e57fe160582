/** The same comparisons with git on a real project's history: express, 6,158 commits. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runGit } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { gitBlame, gitCochange, type LineOwner, gitCommitFiles, gitFiles, gitHead, gitLogFile, historyAsLog, hunksToLines, asLore } from "../helpers/git-truth.ts";
import { gitPeople } from "../helpers/identity-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

let dir = "";
let files: string[] = [];
/** git blame of each file at HEAD, as the blame test read it: the contributors test sums the same lines again. */
const blamed = new Map<string, LineOwner[]>();

beforeAll(async () => {
  isolateHome();
  if (!hasExpress) return;
  dir = await indexedClone("express");
  files = gitFiles(dir);
}, 120_000);
afterAll(() => runGit("/", ["--version"]));

/** A fixed sample: every lib/ file and every fourth other file. */
function sample(): string[] {
  return files.filter((f, i) => f.startsWith("lib/") || i % 4 === 0);
}

describe.skipIf(!hasExpress)("express", () => {
  test("status knows every commit reachable from HEAD", async () => {
    await ask("history", dir, { path: "package.json", limit: 1 });
    const s = await ask("status", dir);
    expect(s.head).toBe(gitHead(dir));
    expect(s.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));
    expect(s.filesTotal).toBe(files.length);
  });

  test("history equals git log --follow --numstat for a sample of files", async () => {
    for (const path of sample()) {
      const r = await ask("history", dir, { path, limit: 10000 });
      const mine = historyAsLog(r);
      expect({ path, commits: mine }).toEqual({ path, commits: gitLogFile(dir, "HEAD", path, true) });
    }
  }, 300_000);

  test("blame of every file equals git blame line by line", async () => {
    for (const path of files) {
      const r = await ask("blame", dir, { path }).catch((e) => e);
      if (r.code === "BINARY_FILE") continue;
      const truth = gitBlame(dir, "HEAD", path);
      blamed.set(path, truth);
      const mine = hunksToLines(r.hunks, path);
      expect(mine.length).toBe(truth.length);
      expect(mine).toEqual(truth.map((o, i) => ({ line: i + 1, ...asLore(o, path) })));
    }
  }, 300_000);

  test("intent names the commits git blame names for a range, with git show's messages", async () => {
    const r = await ask("intent", dir, { path: "lib/response.js", startLine: 100, endLine: 160 });
    const owners = gitBlame(dir, "HEAD", "lib/response.js", ["-L", "100,160"]);
    expect(r.commits.map((c: any) => c.sha).sort()).toEqual([...new Set(owners.map((o) => o.sha))].sort());
    for (const c of r.commits) expect(c.message).toBe(runGit(dir, ["show", "-s", "--format=%B", c.sha]).replace(/\n+$/, ""));
  });

  test("cochange counts equal sets from git log --name-only (the newest 200 commits of each file)", async () => {
    const existing = new Set(files);
    const history = gitCommitFiles(dir, "HEAD");
    for (const path of ["lib/response.js", "lib/router/index.js", "lib/application.js", "package.json", "test/res.send.js"].filter((f) => files.includes(f))) {
      const r = await ask("cochange", dir, { paths: [path], limit: 200 });
      const truth = gitCochange(dir, "HEAD", path, 200, 50, history);
      expect(r.commits).toBe(truth.commits);
      const expected = new Map([...truth.counts].filter(([f]) => existing.has(f)));
      const mine = new Map(r.results.map((x: any) => [x.path, x.count]));
      if (!r.truncated) expect(mine).toEqual(expected);
      else for (const [f, n] of mine) expect(n).toBe(expected.get(f as string)!);
    }
  });

  test("hotspot commit counts equal git log --name-only over the window", async () => {
    const r = await ask("hotspots", dir, { limit: 1000 });
    const counts = new Map<string, number>();
    for (const c of gitCommitFiles(dir, "HEAD", 500)) for (const f of c.files) counts.set(f, (counts.get(f) ?? 0) + 1);
    for (const x of r.results) expect({ path: x.path, commits: x.commits }).toEqual({ path: x.path, commits: counts.get(x.path)! });
    expect(r.results.length).toBe([...counts.keys()].filter((f) => files.includes(f)).length);
  });

  test("hotspots of test/fixtures counts the newest commits under it, as git log --full-history -- test/fixtures lists them", async () => {
    for (const [commits, n] of [["500", 500], ["20", 20]] as const) {
      const r = await ask("hotspots", dir, { path: "test/fixtures", limit: 1000, commits });
      const log = runGit(dir, ["log", "--no-merges", "--full-history", "-n", String(n), "--format=%x1e%H", "--name-only", "-z", "HEAD", "--", "test/fixtures"]).split("\x1e").filter(Boolean);
      const counts = new Map<string, number>();
      for (const rec of log) for (const f of rec.split("\n").slice(1).join("\n").split("\0").map((f) => f.replace(/^\n/, "")).filter((f) => f.startsWith("test/fixtures/"))) counts.set(f, (counts.get(f) ?? 0) + 1);
      expect(r.window.commits).toBe(log.length);
      expect(r.results.length).toBeGreaterThan(0);
      const atHead = new Set(files);
      expect(new Map(r.results.map((x: any) => [x.path, x.commits]))).toEqual(new Map([...counts].filter(([f]) => atHead.has(f))));
    }
  });

  test("contributors of lib/ equal summed git blame lines, a person's names counted as one", async () => {
    const r = await ask("contributors", dir, { path: "lib", limit: 1000 });
    const person = gitPeople(dir);
    const sums = new Map<string, number>();
    for (const f of files.filter((f) => f.startsWith("lib/"))) for (const o of blamed.get(f) ?? gitBlame(dir, "HEAD", f)) sums.set(person(o.author, o.email), (sums.get(person(o.author, o.email)) ?? 0) + 1);
    // People named only as co-authors (Co-authored-by) come with no lines of their own.
    expect(new Map(r.results.filter((x: any) => x.lines > 0).map((x: any) => [`${x.author} <${x.email}>`, x.lines]))).toEqual(sums);
    for (const x of r.results.filter((x: any) => x.lines === 0)) expect(x.coLines).toBeGreaterThan(0);
  }, 300_000);
});
