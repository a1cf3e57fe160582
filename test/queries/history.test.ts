import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { gitFiles, gitLogFile, historyAsLog, short, type LogEntry } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import type { TestRepo } from "../helpers/git-repo.ts";
import { indexFor } from "../../src/index/indexes.ts";
import { gitFileChanges } from "../../src/queries/run/follow.ts";
import type { QueryContext } from "../../src/queries/context.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = buildStoryRepo();
});
afterAll(() => repo.cleanup());

const pick = historyAsLog;

describe("history", () => {
  test("follows every file across renames and copies exactly as git log --follow does", async () => {
    for (const path of gitFiles(repo.dir)) {
      const r = await ask("history", repo.dir, { path, limit: 1000 });
      expect({ path, commits: pick(r) }).toEqual({ path, commits: gitLogFile(repo.dir, "HEAD", path, true) });
      expect(r.truncated).toBe(false);
    }
  });

  test("git's own --follow walk (what answers during a first index) gives the index's rows for every file, at every limit", async () => {
    const ctx = { index: await indexFor(repo.dir) } as QueryContext;
    const head = repo.head();
    for (const path of gitFiles(repo.dir)) {
      const full = pick(await ask("history", repo.dir, { path, limit: 1000 }));
      for (const limit of [1, 2, 1000]) {
        const rows = await gitFileChanges(ctx, head, path, limit);
        const mine: LogEntry[] = rows.map((r) => ({ sha: short(r.sha), status: r.status, path: r.path, oldPath: r.old_path && (r.status === "R" || r.status === "C") ? r.old_path : undefined, additions: r.additions, deletions: r.deletions }));
        expect({ path, limit, rows: mine }).toEqual({ path, limit, rows: full.slice(0, limit + 1) });
      }
    }
  });

  test("follows a rename back to the old name", async () => {
    const r = await ask("history", repo.dir, { path: "src/main.js" });
    const rename = r.commits.find((c: any) => c.status === "R");
    expect(rename).toMatchObject({ oldPath: "src/app.js", subject: "Rename app to main" });
    expect(rename.path).toBeUndefined();
    expect(r.commits.at(-1)).toMatchObject({ path: "src/app.js", status: "A" });
  });

  test("follows a copy of an unchanged file, as git's --follow does", async () => {
    const r = await ask("history", repo.dir, { path: "src/util2.js" });
    expect(r.commits[0]).toMatchObject({ status: "C", oldPath: "src/util.js" });
    expect(r.commits.length).toBe(2);
  });

  test("--no-follow gives exactly git log -- PATH: its commits, statuses (a rename into PATH is A) and line counts", async () => {
    for (const path of gitFiles(repo.dir)) {
      const r = await ask("history", repo.dir, { path, follow: false, limit: 1000 });
      // A merge git shows has no diff of its own: git prints no status, lore leaves out M.
      const truth = gitLogFile(repo.dir, "HEAD", path, false).map((e) => ({ ...e, status: e.status || "M" }));
      expect({ path, commits: pick(r) }).toEqual({ path, commits: truth });
      expect(r.commits.every((c: any) => c.path === undefined && c.oldPath === undefined)).toBe(true);
    }
    const main = await ask("history", repo.dir, { path: "src/main.js", follow: false, limit: 1000 });
    expect(main.commits.at(-1)).toMatchObject({ subject: "Rename app to main", status: "A" });
  });

  test("leaves out what says nothing: status M, path unless renamed, oldPath unless renamed or copied, email", async () => {
    const r = await ask("history", repo.dir, { path: "src/main.js", limit: 1000 });
    for (const c of r.commits) {
      expect(c.sha).toMatch(/^[0-9a-f]{12}$/);
      expect(c.email).toBeUndefined();
      expect(c.status).not.toBe("M");
      expect(c.path).not.toBe("src/main.js");
      if (c.oldPath !== undefined) expect(["R", "C"]).toContain(c.status);
    }
    expect(r.commits.some((c: any) => c.status === undefined)).toBe(true);
    expect(r.rev).toMatch(/^[0-9a-f]{40}$/);
  });

  test("a limit cuts the list and says so", async () => {
    const r = await ask("history", repo.dir, { path: "README.md", limit: 2 });
    expect(r.commits.length).toBe(2);
    expect(r.truncated).toBe(true);
    expect(r.commits.map((c: any) => c.sha)).toEqual(gitLogFile(repo.dir, "HEAD", "README.md", true, 2).map((e) => e.sha));
  });

  test("until answers as of an older commit", async () => {
    const rev = repo.git("rev-parse", "HEAD~4").trim();
    const r = await ask("history", repo.dir, { path: "src/main.js", until: rev, limit: 100 });
    expect(pick(r)).toEqual(gitLogFile(repo.dir, rev, "src/main.js", true));
  });

  test("a binary file's changes have no line counts", async () => {
    const r = await ask("history", repo.dir, { path: "logo.png" });
    expect(r.commits[0]).toMatchObject({ additions: null, deletions: null, status: "A" });
  });

  test("a deleted file still has a history", async () => {
    repo.remove("gen/file1.txt");
    repo.commit("Remove file1");
    const r = await ask("history", repo.dir, { path: "gen/file1.txt" });
    expect(pick(r)).toEqual(gitLogFile(repo.dir, "HEAD", "gen/file1.txt", true));
    expect(r.commits[0].status).toBe("D");
  });
});
