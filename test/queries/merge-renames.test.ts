/**
 * history where merges and later commits meet renames (test/helpers/merge-rename-shapes.ts):
 * git log --follow limits each commit's diff to the name it follows, so a commit that renamed that
 * name away shows as its deletion. Every file at HEAD and at the other merges equals git's list,
 * field for field, before the index and after; blame works where a configured ignore file is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gitBlame, gitLogFile, historyAsLog, asLore, hunksToLines, type LogEntry } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { mergeRenameShapes, type Shape } from "../helpers/merge-rename-shapes.ts";
import { TestRepo } from "../helpers/git-repo.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { findQuery } from "../../src/queries/index.ts";
import { validateInput } from "../../src/queries/define.ts";
import { HistoryNotYet } from "../../src/queries/run/common.ts";
import type { QueryContext } from "../../src/queries/context.ts";

let shapes: Shape[] = [];
/** Each shape's questions: every file at HEAD and at each other merge a branch ends with. */
const questions = new Map<Shape, { path: string; until?: string }[]>();
/** git log --follow's answer and lore's before the index, by question. */
const truth = new Map<string, LogEntry[]>();
const cold = new Map<string, unknown>();

const filesAt = (s: Shape, rev: string) => s.repo.git("ls-tree", "-r", "--name-only", rev).split("\n").filter(Boolean);
const key = (s: Shape, q: { path: string; until?: string }) => JSON.stringify([s.repo.dir, q]);

/** history answered the way the daemon answers it while no index exists yet (git's own walk). */
async function askCold(dir: string, input: Record<string, unknown>): Promise<unknown> {
  const def = findQuery("history")!;
  const index = await indexFor(dir);
  expect(index.indexedHead).toBeUndefined();
  return def.run({ index, clock: () => new Date(), blameWorkers: 2 } as QueryContext, validateInput(def, { repo: dir, ...input }) as never);
}

beforeAll(async () => {
  isolateHome();
  shapes = mergeRenameShapes();
  for (const s of shapes) {
    // The other merges: git's walk meets the same commits there in another order (a side's own tip is a plain line).
    const head = s.repo.head();
    const tips = s.revs.filter((rev) => s.repo.git("rev-parse", rev).trim() !== head && s.repo.git("rev-list", "--parents", "-n", "1", rev).trim().split(" ").length > 2);
    const qs: { path: string; until?: string }[] = [...filesAt(s, "HEAD").map((path) => ({ path })), ...tips.flatMap((until) => filesAt(s, until).map((path) => ({ path, until })))];
    questions.set(s, qs);
    for (const q of qs) {
      truth.set(key(s, q), gitLogFile(s.repo.dir, q.until ?? "HEAD", q.path));
      try {
        cold.set(key(s, q), await askCold(s.repo.dir, { ...q, limit: 1000 }));
      } catch (err) {
        if (!(err instanceof HistoryNotYet)) throw err;
      }
    }
    await (await indexFor(s.repo.dir)).refresh();
  }
}, 120_000);

afterAll(() => {
  closeAll();
  for (const s of shapes) s.repo.cleanup();
});

describe("history across renames that merges and later commits meet", () => {
  test("the shapes hold what they are for: git shows commits that renamed a file away as its deletion", () => {
    for (const s of shapes) {
      const deletions = questions.get(s)!.flatMap((q) => truth.get(key(s, q))!).filter((e) => e.status === "D");
      // Each such deletion is a rename in git's view of the whole commit: the index keeps it under the new name.
      const renamedAway = deletions.filter((d) =>
        s.repo
          .git("show", "-M", "--format=", "--name-status", d.sha)
          .split("\n")
          .some((l) => l.startsWith("R") && l.split("\t")[1] === d.path),
      );
      expect({ shape: s.name, renamedAway: renamedAway.length > 0 }).toEqual({ shape: s.name, renamedAway: true });
    }
  });

  test("history of every file at HEAD and at the other merges is git log --follow's, field for field", async () => {
    for (const s of shapes)
      for (const q of questions.get(s)!) {
        const got = historyAsLog(await ask("history", s.repo.dir, { ...q, limit: 1000 }));
        expect({ shape: s.name, ...q, log: got }).toEqual({ shape: s.name, ...q, log: truth.get(key(s, q))! });
      }
  });

  test("each answer is the same before the index exists and after it", async () => {
    let compared = 0;
    for (const s of shapes)
      for (const q of questions.get(s)!) {
        if (!cold.has(key(s, q))) continue;
        compared++;
        expect({ shape: s.name, ...q, answer: await ask("history", s.repo.dir, { ...q, limit: 1000 }) }).toEqual({ shape: s.name, ...q, answer: cold.get(key(s, q)) });
      }
    expect(compared).toBeGreaterThan(shapes.length * 3);
  });

  test("a short limit pages through the same list git gives", async () => {
    for (const s of shapes)
      for (const q of questions.get(s)!.filter((x) => x.until === undefined)) {
        const { path } = q;
        const all = truth.get(key(s, q))!;
        for (let n = 1; n < all.length; n++) {
          const r = await ask("history", s.repo.dir, { path, limit: n });
          expect({ shape: s.name, path, n, log: historyAsLog(r), truncated: r.truncated }).toEqual({ shape: s.name, path, n, log: all.slice(0, n), truncated: true });
        }
      }
  });
});

describe("blame with the repository's ignore file where git's config names a missing one", () => {
  let sub: TestRepo;
  let top: TestRepo;

  beforeAll(() => {
    // A submodule, as git's submodule merge tests build: its own repository, without the superproject's ignore file.
    sub = new TestRepo();
    sub.write("file1", "x\n").write("file2", "a\nb\nc\n").commit("base inside the submodule");
    const edit = sub.write("file2", "a\nB\nc\n").commit("edit file2");
    sub.write(".git-blame-ignore-revs", `${edit}\n`);
    top = new TestRepo();
    top.write("file1", "x\n").commit("base");
    top.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "sub1");
    top.commit("add sub1");
    // A setting many people keep globally: a relative name each repository may or may not have.
    sub.git("config", "blame.ignoreRevsFile", ".git-blame-ignore-revs-missing");
  });
  afterAll(() => {
    top.cleanup();
    sub.cleanup();
  });

  test("git's blame stops on the missing file, lore blames with the repository's file alone, as git does told so", async () => {
    expect(() => gitBlame(sub.dir, "HEAD", "file2")).toThrow(/could not open object name list/);
    const truth = gitBlame(sub.dir, "HEAD", "file2", ["--no-ignore-revs-file", "--ignore-revs-file", ".git-blame-ignore-revs"]).map((o) => asLore(o, "file2"));
    const r = await ask("blame", sub.dir, { path: "file2" });
    expect(hunksToLines(r.hunks, "file2").map((l) => ({ sha: l.sha, origPath: l.origPath, origLine: l.origLine }))).toEqual(truth);
    // The repository's file was honoured: without it the edit keeps its line.
    expect(truth).not.toEqual(gitBlame(sub.dir, "HEAD", "file2", ["--no-ignore-revs-file"]).map((o) => asLore(o, "file2")));
  });

  test("history -L :NAME finds a function there too", async () => {
    sub.write("code.js", "function alpha() {\n  return 1;\n}\n").commit("add code");
    const r = await ask("history", sub.dir, { path: "code.js", lines: ":alpha" });
    expect(r.range).toEqual([1, 3]);
  });
});
