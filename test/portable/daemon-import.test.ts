/**
 * An import while a daemon serves the repository: the daemon takes the new index between two
 * answers (questions asked meanwhile all answer, each as git does), and serves it caught up after.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { gitBlame, hunksToLines, short } from "../helpers/git-truth.ts";
import { cli } from "../helpers/lore.ts";
import { daemonHome, discardHome, lore, stopDaemons } from "../daemon/daemon-helpers.ts";

let home = "";
let repo = "";
let file = "";
let paths: string[] = [];

beforeAll(async () => {
  const root = tempDir("lore-dimp-");
  const a = join(root, "a");
  await generateRepo({ dir: a, commits: 300, files: 40, seed: 21 });
  repo = join(root, "b");
  runGit(root, ["clone", "-q", "--no-local", a, repo]);
  const b = new TestRepo(repo, false);
  b.git("config", "user.name", "Test Committer");
  b.git("config", "user.email", "committer@example.com");
  paths = runGit(repo, ["ls-files"]).split("\n").filter((f) => f.endsWith(".ts")).slice(0, 4);
  // Each commit appends a line to one of the four files (kept here: the batch writes the work tree at its end).
  const text = new Map(paths.map((p) => [p, readFileSync(join(repo, p), "utf8")]));
  b.commits((batch) => {
    for (let i = 0; i < 30; i++) {
      const p = paths[i % 4]!;
      text.set(p, text.get(p)! + `line ${i}\n`);
      batch.write(p, text.get(p)!).commit(`change ${i}`);
    }
  });
  file = join(root, "a.lore");
  expect(cli(a, ["index", "export", file], { LORE_HOME: join(root, "home-a") }).code).toBe(0);
  home = daemonHome();
}, 240_000);

afterAll(async () => {
  await stopDaemons(home);
  await discardHome(home);
});

/** The commit of each line as git blame says it, cut as lore cuts shas. */
function truth(path: string): string[] {
  return gitBlame(repo, "HEAD", path).map((o) => short(o.sha));
}

function lines(answer: any, path: string): string[] {
  return hunksToLines(answer.hunks, path).map((l) => l.sha);
}

describe("an import while the daemon serves the repository", () => {
  test("questions asked during the swap all answer as git does, and the daemon serves the imported index after", async () => {
    // The daemon opens the repository and indexes it the usual way first.
    const first = await lore(home, repo, ["blame", paths[0]!, "--json"]);
    expect(first.code).toBe(0);
    expect(lines(first.json, paths[0]!)).toEqual(truth(paths[0]!));
    const importing = lore(home, repo, ["index", "import", file, "--json"]);
    const during: Promise<any>[] = [];
    for (let i = 0; i < 12; i++) during.push(lore(home, repo, ["blame", paths[i % 4]!, "--json"]).then((r) => ({ ...r, path: paths[i % 4]! })));
    const done = await importing;
    expect(done.stderr).toContain("the daemon serves it");
    expect(done.code).toBe(0);
    expect(done.json.newCommits).toBe(30);
    for (const r of await Promise.all(during)) {
      expect(r.code).toBe(0);
      expect(lines(r.json, r.path)).toEqual(truth(r.path));
    }
    const status = await lore(home, repo, ["status", "--json"]);
    expect(status.json.state).toBe("fresh");
    expect(status.json.commitsIndexed).toBe(Number(runGit(repo, ["rev-list", "--count", "HEAD"]).trim()));
    for (const path of paths) expect(lines((await lore(home, repo, ["blame", path, "--json"])).json, path)).toEqual(truth(path));
    const log = readFileSync(join(home, "daemon.log"), "utf8");
    expect(log).toContain("imported an index at");
  }, 120_000);
});
