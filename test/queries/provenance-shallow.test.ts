/** Provenance in shallow clones of hono: a pr lore gives is the full history's, never one a cut history suggests; no release where the clone cannot know it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ask, isolateHome } from "../helpers/lore.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { cloneHono, hasHono } from "../helpers/express.ts";
import { prsByGit } from "../helpers/provenance-truth.ts";
import { indexFor } from "../../src/index/indexes.ts";

let dir: string;
let full: string;
let truth: Map<string, number>;

beforeAll(() => {
  isolateHome();
  dir = tempDir();
  if (!hasHono) return;
  full = cloneHono(join(dir, "hono-full"));
  truth = prsByGit(full);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasHono)("provenance in shallow clones of hono", () => {
  for (const depth of [1, 40, 300]) {
    test(`at depth ${depth}, every pr is the one the full history gives, and no commit has a release`, async () => {
      const repo = join(dir, `hono-${depth}`);
      runGit(dir, ["clone", "-q", "--depth", String(depth), `file://${full}`, repo]);
      const log = await ask("log", repo, { limit: 50 });
      for (const c of log.commits) expect(c.release).toBeUndefined();
      const ix = await indexFor(repo);
      const shas = runGit(repo, ["rev-list", "HEAD"]).split("\n").filter(Boolean);
      const wrong = shas.flatMap((sha) => {
        const pr = ix.store.provenance.marksOf(sha)?.pr;
        return pr !== undefined && pr !== truth.get(sha) ? [[sha, pr, truth.get(sha)]] : [];
      });
      expect(wrong).toEqual([]);
      // What the clone can know (a commit's own subject or merge) it still says.
      const own = shas.filter((sha) => /\(#\d+\)\s*$|^Merge pull request #\d+ /.test(runGit(repo, ["log", "-1", "--format=%s", sha]).trim()));
      for (const sha of own.slice(0, 20)) expect(ix.store.provenance.marksOf(sha)?.pr).toBe(truth.get(sha));
      const show = await ask("show", repo, { rev: shas[0] });
      expect(show.release).toBeUndefined();
    });
  }
});

/** main: b1..b3, then ten commits; feat: one commit off b3, merged as pull request #7. At depth 4 the first side stops at a8, the branch side reaches b2. */
function forkedLongAgo(root: string): string {
  const repo = join(root, "forked");
  mkdirSync(repo);
  runGit(repo, ["init", "-q", "-b", "main"]);
  runGit(repo, ["config", "user.name", "Alice"]);
  runGit(repo, ["config", "user.email", "alice@example.com"]);
  const commit = (file: string, subject: string) => {
    writeFileSync(join(repo, file), `${subject}\n`);
    runGit(repo, ["add", file]);
    runGit(repo, ["commit", "-q", "-m", subject]);
  };
  for (let i = 1; i <= 3; i++) commit(`b${i}.txt`, `base ${i}`);
  runGit(repo, ["checkout", "-q", "-b", "feat"]);
  commit("f.txt", "the feature");
  runGit(repo, ["checkout", "-q", "main"]);
  for (let i = 1; i <= 10; i++) commit(`a${i}.txt`, `main ${i}`);
  runGit(repo, ["merge", "-q", "--no-ff", "feat", "-m", "Merge pull request #7 from alice/feat"]);
  runGit(repo, ["tag", "v1.0.0"]);
  return repo;
}

describe("provenance in a shallow clone whose merge's first side is cut", () => {
  test("the commits of main the branch side still reaches get no pr from the merge, and none is given where the clone cannot tell", async () => {
    const root = tempDir();
    const src = forkedLongAgo(root);
    const truth = prsByGit(src);
    const repo = join(root, "shallow");
    runGit(root, ["clone", "-q", "--depth", "4", `file://${src}`, repo]);
    const shas = runGit(repo, ["rev-list", "HEAD"]).split("\n").filter(Boolean);
    // The branch side reaches main's own commits the first side lost: git's M^1..M^2 in the clone names them.
    expect(runGit(repo, ["rev-list", "HEAD^2", "^HEAD^1"]).split("\n").filter(Boolean).length).toBeGreaterThan(1);
    await ask("log", repo, { limit: 1 });
    const ix = await indexFor(repo);
    const given = shas.map((sha) => [sha, ix.store.provenance.marksOf(sha)?.pr]).filter(([, pr]) => pr !== undefined);
    for (const [sha, pr] of given) expect([sha, pr]).toEqual([sha, truth.get(sha as string)]);
    expect(given.map(([sha]) => sha)).toContain(shas[0]);
    const log = await ask("log", repo, { limit: 20 });
    for (const c of log.commits) expect(c.release).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
  });
});
