import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitCochange, gitCommitFiles, gitFiles } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import type { TestRepo } from "../helpers/git-repo.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

describe("cochange", () => {
  test("counts, confidence and jaccard match sets computed from git log --name-only, for every file", async () => {
    const existing = new Set(gitFiles(repo.dir));
    for (const path of existing) {
      for (const [commits, maxFiles] of [["500", 50], ["3", 50], ["all", 100]] as const) {
        const r = await ask("cochange", repo.dir, { paths: [path], commits, maxFiles, limit: 200 });
        const truth = gitCochange(repo.dir, "HEAD", path, commits === "all" ? undefined : Number(commits), maxFiles);
        expect({ path, commits: r.commits }).toEqual({ path, commits: truth.commits });
        const expected = [...truth.counts].filter(([f]) => existing.has(f));
        expect(r.results.length).toBe(expected.length);
        for (const x of r.results) {
          const count = truth.counts.get(x.path)!;
          expect({ path, other: x.path, count: x.count }).toEqual({ path, other: x.path, count });
          expect(x.confidence).toBe(Math.round((count / truth.commits) * 100) / 100);
          expect(x.jaccard).toBe(Math.round((count / (truth.commits + truth.totals.get(x.path)! - count)) * 100) / 100);
        }
        // Ranked by the weighted sum, then count, then path.
        const keys = r.results.map((x: any) => [truth.scores.get(x.path)!, x.count, x.path] as const);
        const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1] || (a[2] < b[2] ? -1 : 1));
        expect(keys.map((k: any) => k[2])).toEqual(sorted.map((k) => k[2]));
      }
    }
  });

  test("the files changed together most come first", async () => {
    const r = await ask("cochange", repo.dir, { paths: ["src/main.js"] });
    expect(r.results[0].path).toBe("test/main.test.js");
  });

  test("sweeping commits are left out, and the window is reported", async () => {
    const r = await ask("cochange", repo.dir, { paths: ["src/main.js"], maxFiles: 50 });
    expect(r.results.some((x: any) => x.path.startsWith("gen/"))).toBe(false);
    expect(r.window).toMatchObject({ maxFiles: 50, perFile: 200 });
    const oldest = gitCommitFiles(repo.dir, "HEAD").filter((c) => c.files.length <= 50 && c.files.includes("src/main.js")).at(-1)!;
    expect(r.window.from).toBe(new Date(Number(repo.git("show", "-s", "--format=%ct", oldest.sha).trim()) * 1000).toISOString().replace(".000", ""));
  });

  test("several files: counts over the commits of either, and `with` names the inputs each result changed with", async () => {
    const inputs = ["src/main.js", "test/main.test.js"];
    const r = await ask("cochange", repo.dir, { paths: inputs, limit: 200 });
    const truth = gitCochange(repo.dir, "HEAD", inputs, 200, 50);
    const existing = new Set(gitFiles(repo.dir));
    expect(r.paths).toEqual(inputs);
    expect(r.commits).toBe(truth.commits);
    expect(new Map(r.results.map((x: any) => [x.path, x.count]))).toEqual(new Map([...truth.counts].filter(([f]) => existing.has(f))));
    const commits = gitCommitFiles(repo.dir, "HEAD").filter((c) => c.files.length <= 50);
    for (const x of r.results) expect({ p: x.path, with: x.with }).toEqual({ p: x.path, with: inputs.filter((i) => commits.some((c) => c.files.includes(i) && c.files.includes(x.path))) });
  });

  test("changed asks about the work tree's and the index's changes, leaves them out, and never writes .git/index", async () => {
    const quiet = await ask("cochange", repo.dir, { changed: true });
    expect(quiet).toMatchObject({ paths: [], results: [], commits: 0 });
    expect(quiet.note).toContain("Nothing is changed");
    const main = repo.git("show", "HEAD:src/main.js");
    repo.write("src/main.js", main + "// edited\n");
    repo.write("README.md", repo.git("show", "HEAD:README.md") + "staged\n");
    repo.git("add", "README.md");
    repo.write("brand-new.txt", "untracked\n");
    const index = readFileSync(join(repo.dir, ".git", "index"));
    try {
      const r = await ask("cochange", repo.dir, { changed: true, limit: 200 });
      expect(r.paths).toEqual(["README.md", "src/main.js"]);
      const truth = gitCochange(repo.dir, "HEAD", r.paths, 200, 50);
      const existing = new Set(gitFiles(repo.dir));
      expect(new Map(r.results.map((x: any) => [x.path, x.count]))).toEqual(new Map([...truth.counts].filter(([f]) => existing.has(f))));
      expect(r.results.some((x: any) => r.paths.includes(x.path))).toBe(false);
      expect(readFileSync(join(repo.dir, ".git", "index")).equals(index)).toBe(true);
    } finally {
      repo.git("reset", "-q", "--hard", "HEAD");
      repo.remove("brand-new.txt");
    }
  });

  test("files and changed together are a bad argument; a file never committed is PATH_NOT_FOUND", async () => {
    await expect(ask("cochange", repo.dir, { paths: ["src/main.js"], changed: true })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("cochange", repo.dir, {})).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
    await expect(ask("cochange", repo.dir, { paths: ["no/such.js"] })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
  });

  test("until measures co-change on held-out history", async () => {
    const rev = repo.git("rev-parse", "HEAD~1").trim();
    const r = await ask("cochange", repo.dir, { paths: ["src/main.js"], until: rev });
    expect(r.commits).toBe(gitCochange(repo.dir, rev, "src/main.js", 200, 50).commits);
  });
});

describe("hotspots", () => {
  test("commit counts match git log --name-only for files at HEAD", async () => {
    const r = await ask("hotspots", repo.dir, { limit: 1000 });
    const existing = new Set(gitFiles(repo.dir));
    const counts = new Map<string, number>();
    for (const c of gitCommitFiles(repo.dir, "HEAD", 500)) for (const f of c.files) counts.set(f, (counts.get(f) ?? 0) + 1);
    const expected = [...counts].filter(([f]) => existing.has(f));
    expect(r.results.length).toBe(expected.length);
    for (const x of r.results) expect({ path: x.path, commits: x.commits }).toEqual({ path: x.path, commits: counts.get(x.path)! });
    expect(r.truncated).toBe(false);
  });

  test("ranks by score = commits × log10(10 + lines), with line counts of the files", async () => {
    const r = await ask("hotspots", repo.dir, { limit: 1000 });
    const scores = r.results.map((x: any) => x.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const main = r.results.find((x: any) => x.path === "src/main.js");
    expect(main.lines).toBe(repo.git("show", "HEAD:src/main.js").split("\n").length - 1);
    expect(main.score).toBeCloseTo(main.commits * Math.log10(10 + main.lines), 2);
    const logo = r.results.find((x: any) => x.path === "logo.png");
    expect(logo.lines).toBe(0);
  });

  test("since takes a calendar date as the start of that day, not the clock's time of day", async () => {
    // Every commit of the story repo is from 2023-11-14 22:xx UTC.
    const day = await ask("hotspots", repo.dir, { since: "2023-11-14" });
    expect(day.window.since).toBe(new Date(2023, 10, 14).toISOString().replace(".000", ""));
    expect(day.window.commits).toBe(Number(repo.git("rev-list", "--count", "HEAD").trim()));
    const after = await ask("hotspots", repo.dir, { since: "2023-11-15" });
    expect(after.window.commits).toBe(0);
    expect(after.results).toEqual([]);
  });

  test("a folder narrows the list, and additions/deletions sum numstat", async () => {
    const r = await ask("hotspots", repo.dir, { path: "src" });
    expect(r.results.every((x: any) => x.path.startsWith("src/"))).toBe(true);
    const main = r.results.find((x: any) => x.path === "src/main.js");
    // Whole-commit numstat with rename detection, the entries of src/main.js: what each commit did to it.
    const stat = repo.git("log", "-M", "--numstat", "--format=", "HEAD").trim().split("\n").map((l) => l.split("\t")).filter((f) => f[2] === "src/main.js" || f[2] === "src/{app.js => main.js}");
    expect(main.additions).toBe(stat.reduce((s, [a]) => s + Number(a), 0));
    expect(main.deletions).toBe(stat.reduce((s, [, d]) => s + Number(d), 0));
  });
});
