/** Depth-1 and depth-50 clones of express and hono: each question says where history stops, as git's shallow file and blame say. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ask, isolateHome } from "../helpers/lore.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { cloneExpress, cloneHono, hasExpress, hasHono } from "../helpers/express.ts";

const CORPORA = [
  { name: "express", has: hasExpress, clone: cloneExpress, file: "lib/response.js", folder: "lib" },
  { name: "hono", has: hasHono, clone: cloneHono, file: "src/hono-base.ts", folder: "src/helper/cookie" },
];

let dir: string;

beforeAll(() => {
  isolateHome();
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const corpus of CORPORA) {
  describe.skipIf(!corpus.has)(`shallow clones of ${corpus.name}`, () => {
    const clones: Record<number, string> = {};
    beforeAll(() => {
      const full = corpus.clone(join(dir, `${corpus.name}-full`));
      for (const depth of [1, 50]) {
        runGit(dir, ["clone", "-q", "--depth", String(depth), `file://${full}`, `${corpus.name}-${depth}`]);
        clones[depth] = join(dir, `${corpus.name}-${depth}`);
      }
    });

    for (const depth of [1, 50]) {
      test(`at depth ${depth}, every question says where history stops, and credits no boundary line or file`, async () => {
        const repo = clones[depth]!;
        const shallow = readFileSync(join(repo, ".git", "shallow"), "utf8").split("\n").filter(Boolean);
        const named = (a: { historyStops?: { at: Record<string, string> } }) => Object.keys(a.historyStops?.at ?? {});
        const isBoundary = (sha: string) => shallow.some((b) => b.startsWith(sha));
        const lastLine = Number(runGit(repo, ["show", `HEAD:${corpus.file}`]).split("\n").length - 1);
        const asked: [string, Record<string, unknown>][] = [
          ["blame", { path: corpus.file }],
          ["intent", { path: corpus.file, startLine: 1, endLine: 10 }],
          ["history", { path: corpus.file, limit: 100 }],
          ["history", { path: corpus.file, lines: "1,3", limit: 100 }],
          ["log", { limit: 100 }],
          ["show", { rev: shallow[0] }],
          ["search", { query: "fix" }],
          ["search", { query: "function", code: true, oldest: true }],
          ["cochange", { paths: [corpus.file] }],
          ["hotspots", {}],
          ["contributors", { path: corpus.folder }],
          ["owners", { path: corpus.folder }],
        ];
        for (const [name, input] of asked) {
          const a = await ask(name, repo, input);
          expect({ name, named: named(a).every(isBoundary) && named(a).length > 0 }).toEqual({ name, named: true });
        }
        // Blame: the lines git marks with ^ are those lore pins on the commits historyStops names.
        const marked = runGit(repo, ["blame", "-s", "-l", corpus.file]).split("\n").filter(Boolean).filter((l) => l.startsWith("^")).length;
        const b = await ask("blame", repo, { path: corpus.file });
        const pinned = b.hunks.filter((h: [number, number, string]) => isBoundary(h[2])).reduce((n: number, h: [number, number]) => n + h[1] - h[0] + 1, 0);
        expect(pinned).toBe(marked);
        // Intent gives no boundary commit's message or files; owners and contributors credit no one with its lines.
        const i = await ask("intent", repo, { path: corpus.file, startLine: 1, endLine: Math.min(10, lastLine) });
        for (const c of i.commits) expect(isBoundary(c.sha)).toBe(false);
        const c = await ask("contributors", repo, { path: corpus.folder, limit: 1000 });
        expect(c.beforeHistory).toBeGreaterThan(0);
        expect(c.totalLines - c.beforeHistory).toBe(c.results.reduce((n: number, r: { lines: number }) => n + r.lines, 0));
        const o = await ask("owners", repo, { path: corpus.folder });
        expect(o.beforeHistory).toBe(c.beforeHistory);
        if (depth === 1) {
          // Every line is from before the one commit the clone has: nobody owns any, and there is no truck factor.
          expect([o.authors, o.truckFactor, c.results]).toEqual([[], null, []]);
        }
        // History: a boundary row has no A; the rows are git log --follow's.
        const h = await ask("history", repo, { path: corpus.file, limit: 100 });
        const git = runGit(repo, ["log", "--follow", "-n", "100", "--format=%h", "--abbrev=12", "--", corpus.file]).split("\n").filter(Boolean);
        expect(h.commits.map((x: { sha: string }) => x.sha)).toEqual(git);
        for (const x of h.commits) if (isBoundary(x.sha)) expect([x.boundary, x.status]).toEqual([true, undefined]);
      });
    }
  });
}
