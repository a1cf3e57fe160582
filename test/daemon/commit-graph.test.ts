import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { refreshCommitGraph } from "../../src/daemon/commit-graph.ts";
import { discoverRepo } from "../../src/git/repo.ts";
import { git } from "../../src/git/run.ts";
import { RepoIndex } from "../../src/index/repo-index.ts";
import { buildStoryRepo } from "../helpers/story-repo.ts";
import { lines, runGit, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { isolateHome } from "../helpers/lore.ts";

let repo: TestRepo;
let home: string;
const opened: RepoIndex[] = [];

beforeAll(() => {
  home = isolateHome();
  repo = buildStoryRepo();
}, 60_000);

afterAll(() => {
  for (const ix of opened) ix.close();
  repo.cleanup();
  rmSync(home, { recursive: true, force: true });
}, 60_000);

async function open(dir: string): Promise<RepoIndex> {
  const ix = RepoIndex.open(await discoverRepo(dir));
  opened.push(ix);
  await ix.refresh();
  return ix;
}

/** Every file under a folder with its size and modification time. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${statSync(p).size}:${statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

const files = (dir: string) => runGit(dir, ["ls-files", "-z"]).split("\0").filter(Boolean);

async function expectSameBytes(ix: RepoIndex, args: string[]): Promise<void> {
  const plain = await git(args, { cwd: ix.repo.root });
  const withGraph = await git(args, ix.git);
  expect(withGraph.equals(plain)).toBe(true);
}

test("lore's commit-graph leaves the repository untouched and git answers byte for byte the same with it", async () => {
  const before = snapshot(join(repo.dir, ".git"));
  const ix = await open(repo.dir);
  expect(await refreshCommitGraph(ix)).toBe(true);
  expect(ix.git.env?.GIT_OBJECT_DIRECTORY).toStartWith(home);
  expect(snapshot(join(repo.dir, ".git"))).toEqual(before);
  expect(readdirSync(join(ix.git.env!.GIT_OBJECT_DIRECTORY!, "info", "commit-graphs")).some((f) => f.endsWith(".graph"))).toBe(true);
  for (const path of files(repo.dir)) await expectSameBytes(ix, ["blame", "--porcelain", "HEAD", "--", path]);
  await expectSameBytes(ix, ["log", "--raw", "-z", "-M", "--root", "--no-abbrev", "--format=%H %P %aN %s"]);
  await expectSameBytes(ix, ["log", "--follow", "--format=%H", "--", "src/main.js"]);
});

test("a new commit adds a layer and the answers stay the same", async () => {
  const ix = await open(repo.dir);
  await refreshCommitGraph(ix);
  const chain = () => readFileSync(join(ix.git.env!.GIT_OBJECT_DIRECTORY!, "info", "commit-graphs", "commit-graph-chain"), "utf8");
  const layers = chain();
  repo.write("src/util.js", lines("rewritten"));
  repo.commit("Rewrite util");
  await ix.refresh();
  await refreshCommitGraph(ix);
  expect(chain()).not.toBe(layers);
  await expectSameBytes(ix, ["blame", "--porcelain", "HEAD", "--", "src/util.js"]);
});

test("a clone that borrows objects through alternates still finds them through lore's graph", async () => {
  const shared = join(tempDir("lore-shared-"), "clone");
  runGit(repo.dir, ["clone", "-q", "--shared", repo.dir, shared]);
  try {
    const ix = await open(shared);
    expect(await refreshCommitGraph(ix)).toBe(true);
    for (const path of files(shared).slice(0, 5)) await expectSameBytes(ix, ["blame", "--porcelain", "HEAD", "--", path]);
  } finally {
    rmSync(join(shared, ".."), { recursive: true, force: true });
  }
});
