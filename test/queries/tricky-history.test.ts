/**
 * Generated histories with renames whose pairing is ambiguous, merges that resolved conflicts and
 * merges that changed a file no commit of theirs touched (test/helpers/tricky-history.ts): every
 * file's blame, line by line with its origin, is git blame's after the background pass (where the
 * single-commit shortcut answers), and each question answers the same before the index and after.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gitBlame, gitFiles, type LineOwner, gitLogFile, historyAsLog, hunksToLines, asLore } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { trickyHistory, type TrickyHistory } from "../helpers/tricky-history.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { findQuery } from "../../src/queries/index.ts";
import { validateInput } from "../../src/queries/define.ts";
import { HistoryNotYet } from "../../src/queries/run/common.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { Warmup } from "../../src/daemon/background.ts";
import { inBackground } from "../../src/git/priority.ts";
import { singleCommitBlame } from "../../src/index/single-commit-blame.ts";
import { blameTarget } from "../../src/queries/run/blame-file.ts";

beforeAll(() => {
  isolateHome();
});
afterAll(() => closeAll());

/** A question answered the way the daemon answers it while no index exists yet: no refresh first. */
async function askCold(name: string, dir: string, input: Record<string, unknown>): Promise<any> {
  const def = findQuery(name)!;
  const index = await indexFor(dir);
  expect(index.indexedHead).toBeUndefined();
  return def.run({ index, clock: () => new Date(), blameWorkers: 2 } as QueryContext, validateInput(def, { repo: dir, ...input }) as never);
}

const lineOwners = (r: any, path: string) => hunksToLines(r.hunks, path).map((l) => ({ sha: l.sha, origPath: l.origPath, origLine: l.origLine }));

// LORE_TRICKY_SEEDS=1,2,3… replays more histories (each ~10 s).
for (const seed of (process.env.LORE_TRICKY_SEEDS ?? "3,11").split(",").map(Number)) {
  describe(`tricky history, seed ${seed}`, () => {
    let h: TrickyHistory;
    let dir = "";
    let files: string[] = [];
    const cold = new Map<string, unknown>();
    const questions = (path: string, lines: number): [string, Record<string, unknown>][] => [
      ["blame", { path }],
      ...(lines >= 2 ? [["blame", { path, startLine: 2, endLine: Math.min(3, lines) }] as [string, Record<string, unknown>]] : []),
      ["blame", { path, ignoreRevs: false }],
      ...(lines >= 1 ? [["intent", { path, startLine: 1, endLine: lines }] as [string, Record<string, unknown>]] : []),
      ["history", { path }],
      ["history", { path, follow: false }],
      ["log", { paths: [path] }],
    ];
    /** Questions about the repository as a whole: each commit shown, the whole log. */
    let whole: [string, Record<string, unknown>][] = [];
    const lengths = new Map<string, number>();
    /** git blame at HEAD, read once per file and options: the tests compare several answers with the same truth. */
    const blamed = new Map<string, LineOwner[]>();
    const blameOf = (path: string, extra: string[] = []) => {
      const k = JSON.stringify([path, extra]);
      if (!blamed.has(k)) blamed.set(k, gitBlame(dir, "HEAD", path, extra));
      return blamed.get(k)!;
    };

    beforeAll(async () => {
      h = trickyHistory(seed);
      dir = h.repo.dir;
      // Ignore one ordinary edit, as a team ignores a reformatting commit.
      const edit = h.repo.git("log", "--format=%H", "-n", "1", "--grep=^edit ").trim() || h.repo.git("log", "--format=%H", "-n", "1", "--grep=^main changes").trim();
      h.repo.write(".git-blame-ignore-revs", `${edit}\n`);
      h.repo.commit("ignore an edit in blame");
      files = gitFiles(dir).filter((f) => f !== ".git-blame-ignore-revs");
      for (const f of files) lengths.set(f, blameOf(f).length);
      whole = [["log", { limit: 1000 }], ...h.repo.git("rev-list", "HEAD").trim().split("\n").map((rev) => ["show", { rev }] as [string, Record<string, unknown>])];
      // First answers, before any index: git alone. One the daemon would hold until the index has
      // enough (HistoryNotYet) is left out: it is never answered early.
      const early = async (q: string, input: Record<string, unknown>) => {
        try {
          cold.set(JSON.stringify([q, input]), await askCold(q, dir, input));
        } catch (err) {
          if (!(err instanceof HistoryNotYet)) throw err;
        }
      };
      for (const f of files) for (const [q, input] of questions(f, lengths.get(f)!)) await early(q, input);
      for (const [q, input] of whole) await early(q, input);
      // Then the index and the background pass, which blames every file (the shortcut where it may).
      const ix = await indexFor(dir);
      await ix.refresh();
      const warmup = new Warmup(ix, 2, () => {});
      warmup.kick();
      while (warmup.active) await Bun.sleep(20);
    }, 120_000);
    afterAll(() => h.repo.cleanup());

    test("it holds what it is for: ambiguous renames, merges that resolved conflicts, merges that wrote a file", () => {
      expect(h.made.ambiguousRenames).toBeGreaterThan(0);
      expect(h.made.conflictMerges).toBeGreaterThan(0);
      expect(h.made.evilMerges).toBeGreaterThan(0);
      expect(h.made.shuffles).toBeGreaterThan(0);
      // git blame really pairs some file differently than the whole commit does, and gives some lines to merges.
      const merges = new Set(h.repo.git("rev-list", "--merges", "--abbrev=12", "--abbrev-commit", "HEAD").trim().split("\n"));
      const owners = files.flatMap((f) => blameOf(f).map((o) => ({ f, ...o })));
      expect(owners.some((o) => merges.has(o.sha))).toBe(true);
      expect(owners.some((o) => o.origPath !== o.f)).toBe(true);
    });

    test("every file's blame is git blame --porcelain's line by line, origin included, with and without ignore-revs, and for -L", async () => {
      for (const path of files) {
        const honoured = await ask("blame", dir, { path });
        expect({ path, lines: lineOwners(honoured, path) }).toEqual({ path, lines: blameOf(path, ["--ignore-revs-file", ".git-blame-ignore-revs"]).map((o) => asLore(o, path)) });
        const plain = await ask("blame", dir, { path, ignoreRevs: false });
        expect({ path, lines: lineOwners(plain, path) }).toEqual({ path, lines: blameOf(path).map((o) => asLore(o, path)) });
        const end = Math.min(3, lengths.get(path)!);
        if (end < 2) continue;
        const range = await ask("blame", dir, { path, startLine: 2, endLine: end });
        expect({ path, lines: lineOwners(range, path) }).toEqual({ path, lines: blameOf(path, ["-L", `2,${end}`, "--ignore-revs-file", ".git-blame-ignore-revs"]).map((o) => asLore(o, path)) });
      }
    });

    test("contributors and owners count the lines git blame gives each person", async () => {
      const truth = new Map<string, number>();
      for (const path of [...files, ".git-blame-ignore-revs"])
        for (const o of blameOf(path, ["--ignore-revs-file", ".git-blame-ignore-revs"])) truth.set(o.email, (truth.get(o.email) ?? 0) + 1);
      const who = await ask("contributors", dir, {});
      expect(new Map(who.results.map((r: any) => [r.email, r.lines]))).toEqual(truth);
      const owners = await ask("owners", dir, {});
      expect(owners.lines).toBe([...truth.values()].reduce((a, b) => a + b, 0));
    });

    test("the single-commit shortcut answers only where git blame agrees, and still answers the files it may", async () => {
      const ix = await indexFor(dir);
      const head = ix.indexedHead!;
      const ctx = { index: ix } as QueryContext;
      let taken = 0;
      for (const e of ix.store.tree.entries().filter((x) => x.type === "blob")) {
        const got = await inBackground(() => singleCommitBlame(ix, blameTarget(ctx, { table: "reach", commit: head, atHead: true }, e, false), undefined));
        if (!got) continue;
        taken++;
        const lines = got.hunks.flatMap((hk) => Array.from({ length: hk.end - hk.start + 1 }, (_, i) => ({ sha: hk.sha.slice(0, 12), origPath: hk.origPath, origLine: hk.origStart + i })));
        expect({ path: e.path, lines }).toEqual({ path: e.path, lines: blameOf(e.path).map((o) => ({ sha: o.sha, origPath: o.origPath, origLine: o.origLine })) });
      }
      // At least the odd files of the root commit, which nothing touched since.
      expect(taken).toBeGreaterThanOrEqual(4);
    });

    test("history of every file is git log --follow's", async () => {
      for (const path of files) expect({ path, log: historyAsLog(await ask("history", dir, { path, limit: 1000 })) }).toEqual({ path, log: gitLogFile(dir, "HEAD", path) });
    });

    test("every question answers the same before the index exists and after the background pass", async () => {
      let compared = 0;
      for (const [q, input] of [...files.flatMap((f) => questions(f, lengths.get(f)!)), ...whole]) {
        const key = JSON.stringify([q, input]);
        if (!cold.has(key)) continue;
        compared++;
        expect({ key, answer: await ask(q, dir, input) }).toEqual({ key, answer: cold.get(key) });
      }
      // Most are answered early: blame, intent, history, show all are.
      expect(compared).toBeGreaterThan(files.length * 5);
      expect([...cold.keys()].filter((k) => k.startsWith('["show"')).length).toBe(whole.length - 1);
    });
  });
}
