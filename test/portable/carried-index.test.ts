/**
 * An index built and exported in one clone (path A, its own LORE_HOME), imported into another clone
 * 30 commits ahead (path B, another LORE_HOME): answers equal those of a fresh first pass and git's,
 * and only the 30 new commits are read. The refusals of bad files are in bad-imports.test.ts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { gitLogTruth, comparable } from "../helpers/git-log-truth.ts";
import { expectBlameLikeGit } from "../helpers/disk-truth.ts";
import { ask, cli } from "../helpers/lore.ts";
import { thirtyMore } from "../helpers/thirty-more.ts";
import { readIndexFile, writeIndexFile } from "../helpers/index-file.ts";

let a = "";
let b = "";
let fresh = "";
let homeA = "";
let homeB = "";
let file = "";
let imported: any;
let sample: string[] = [];

/** An answer without what names the clone's own path (a continue token is sealed with this clone's identity too). */
function portable(answer: any): any {
  return JSON.parse(JSON.stringify(answer, (k, v) => (k === "repo" || k === "continue" ? undefined : v)));
}

beforeAll(async () => {
  const root = tempDir("lore-carry-");
  homeA = join(root, "home-a");
  homeB = join(root, "home-b");
  a = join(root, "a");
  await generateRepo({ dir: a, commits: 400, files: 60, seed: 11 });
  b = join(root, "b");
  runGit(root, ["clone", "-q", "--no-local", a, b]);
  const repo = new TestRepo(b, false);
  repo.git("config", "user.name", "Test Committer");
  repo.git("config", "user.email", "committer@example.com");
  const files = runGit(b, ["ls-files"]).split("\n").filter((f) => f.endsWith(".ts"));
  thirtyMore(repo, files);
  sample = [files[0]!, files[3]!, files[4]!, `${files[20]!}.moved`, files[30]!];
  fresh = join(root, "fresh");
  runGit(root, ["clone", "-q", "--no-local", b, fresh]);
  file = join(root, "a.lore");
  const exp = cli(a, ["index", "export", file, "--json"], { LORE_HOME: homeA });
  expect(exp.stderr).toContain("lore: exported");
  expect(exp.code).toBe(0);
  const imp = cli(b, ["index", "import", file, "--json"], { LORE_HOME: homeB });
  expect(imp.code).toBe(0);
  imported = { ...imp.json, stderr: imp.stderr };
  process.env.LORE_HOME = homeB;
}, 240_000);

describe("an index exported at path A and imported at path B, 30 commits ahead", () => {
  test("the file names nothing of machine A: no path, no LORE_HOME", () => {
    const f = readIndexFile(file);
    const text = f.db.toString("latin1");
    expect(text.includes(a)).toBe(false);
    expect(text.includes(homeA)).toBe(false);
    expect(f.manifest.whole).toBe(true);
    expect(f.manifest.head).toBe(runGit(a, ["rev-parse", "HEAD"]).trim());
  });

  test("only the 30 new commits are read after the import", () => {
    expect(imported.imported).toBe(runGit(a, ["rev-parse", "HEAD"]).trim());
    expect(imported.head).toBe(runGit(b, ["rev-parse", "HEAD"]).trim());
    expect(imported.newCommits).toBe(30);
    expect(imported.stderr).toContain("(30 new commits)");
  });

  test("blame equals git blame on B, and the answer of a fresh first pass", async () => {
    for (const path of sample) {
      const mine = await expectBlameLikeGit(b, path);
      expect(portable(mine)).toEqual(portable(await ask("blame", fresh, { path })));
    }
  });

  test("log equals git log on B, in the whole repository and under a file", async () => {
    const all = await ask("log", b, { limit: 60 });
    expect(comparable(all.commits.map((c: any) => ({ ...c, sha: c.sha.slice(0, 12) })))).toEqual(comparable(gitLogTruth(b, ["-n", "60"]) as any));
    for (const path of sample.slice(0, 2)) {
      const r = await ask("log", b, { paths: [path], limit: 100 });
      expect(r.commits.map((c: any) => c.sha)).toEqual(runGit(b, ["log", "--format=%h", "--abbrev=12", "-n", "100", "--", path]).split("\n").filter(Boolean));
    }
  });

  test("history, intent, cochange, contributors and owners equal a fresh first pass on the same commits", async () => {
    for (const path of sample) {
      expect(portable(await ask("history", b, { path }))).toEqual(portable(await ask("history", fresh, { path })));
      expect(portable(await ask("intent", b, { path, startLine: 1, endLine: 8 }))).toEqual(portable(await ask("intent", fresh, { path, startLine: 1, endLine: 8 })));
      expect(portable(await ask("cochange", b, { paths: [path] }))).toEqual(portable(await ask("cochange", fresh, { paths: [path] })));
    }
    expect(portable(await ask("contributors", b))).toEqual(portable(await ask("contributors", fresh)));
    expect(portable(await ask("owners", b))).toEqual(portable(await ask("owners", fresh)));
  });

  test("history of a file equals git log --follow on B", async () => {
    for (const path of sample) {
      const r = await ask("history", b, { path, limit: 1000 });
      expect(r.commits.map((c: any) => c.sha)).toEqual(runGit(b, ["log", "--follow", "-M", "--format=%h", "--abbrev=12", "--", path]).split("\n").filter(Boolean));
    }
  });

  test("blame of the changed files equals git blame too where the file holds no blame at its head (git then walks the whole history)", async () => {
    const f = readIndexFile(file);
    const dbPath = join(dirname(file), "no-blames.db");
    writeFileSync(dbPath, f.db);
    const db = new Database(dbPath);
    db.exec("DELETE FROM blame_hunks; DELETE FROM blames;");
    db.close();
    f.db = readFileSync(dbPath);
    const crafted = join(dirname(file), "no-blames.lore");
    writeIndexFile(crafted, f);
    // Another clone of B: an index of its own in this LORE_HOME, asked in this process.
    const c = join(dirname(file), "c");
    runGit(dirname(file), ["clone", "-q", "--no-local", b, c]);
    expect(cli(c, ["index", "import", crafted, "--json"], { LORE_HOME: homeB }).code).toBe(0);
    for (const path of sample.slice(0, 3)) await expectBlameLikeGit(c, path);
  });

  test("status says the index is fresh and whole, and blame of every file follows with lore index build", () => {
    const s = cli(b, ["status", "--json"], { LORE_HOME: homeB }).json;
    expect(s.state).toBe("fresh");
    expect(s.commitsIndexed).toBe(Number(runGit(b, ["rev-list", "--count", "HEAD"]).trim()));
    const built = cli(b, ["index", "build", "--json"], { LORE_HOME: homeB });
    expect(built.code).toBe(0);
    expect(built.json.blamed).toBe(built.json.files);
  });
});
