/** End to end on express: an index exported 30 commits back and imported into a full clone answers as git does there. */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { exportedExpress } from "../helpers/corpus-index.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { gitLogTruth, comparable } from "../helpers/git-log-truth.ts";
import { withGitProvenance } from "../helpers/provenance-truth.ts";
import { expectBlameLikeGit } from "../helpers/disk-truth.ts";
import { ask, cli } from "../helpers/lore.ts";

let b = "";
let imported: any;

beforeAll(async () => {
  if (!hasExpress) return;
  const root = tempDir("lore-exp-imp-");
  b = cloneExpress(join(root, "b"));
  // express exported 30 commits back (made once and shared with the other tests that import it: the whole build is a minute of CPU).
  const { file, head } = await exportedExpress(30);
  expect(head).toBe(runGit(b, ["rev-list", "HEAD"]).split("\n")[30]!);
  const home = join(root, "home-b");
  const r = cli(b, ["index", "import", file, "--json"], { LORE_HOME: home });
  expect(r.code).toBe(0);
  imported = r.json;
  process.env.LORE_HOME = home;
}, 300_000);

describe.skipIf(!hasExpress)("express: an index imported 30 commits behind", () => {
  test("catches up by reading only the commits since its head", () => {
    expect(imported.newCommits).toBe(Number(runGit(b, ["rev-list", "--count", `${imported.imported}..HEAD`]).trim()));
    expect(imported.head).toBe(runGit(b, ["rev-parse", "HEAD"]).trim());
  });

  test("blame of the files the new commits changed, and of one they did not, equals git blame", async () => {
    const changed = runGit(b, ["diff", "--name-only", imported.imported, "HEAD", "--", "lib"]).split("\n").filter(Boolean);
    for (const path of [...changed.slice(0, 2), "lib/router/index.js"].filter((p, i, all) => all.indexOf(p) === i)) {
      if (runGit(b, ["ls-files", "--", path]).trim()) await expectBlameLikeGit(b, path);
    }
  });

  test("log equals git log, each commit's pr and agent as git's log says them", async () => {
    const all = await ask("log", b, { limit: 40 });
    expect(comparable(all.commits.map((c: any) => ({ ...c, sha: c.sha.slice(0, 12) })))).toEqual(comparable(withGitProvenance(b, gitLogTruth(b, ["-n", "40"])) as any));
  });
});
