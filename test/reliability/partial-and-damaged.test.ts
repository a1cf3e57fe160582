import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { cli, isolateHome } from "../helpers/lore.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { Warmup } from "../../src/daemon/background.ts";

let home: string;
beforeAll(() => {
  home = isolateHome();
});
afterAll(() => closeAll());

/** Objects the clone lacks (promised by its remote), as git counts them without fetching. */
function missingObjects(dir: string): number {
  return runGit(dir, ["rev-list", "--objects", "--all", "--missing=print"], { GIT_NO_LAZY_FETCH: "1" })
    .split("\n")
    .filter((l) => l.startsWith("?")).length;
}

function objectsHere(dir: string): string {
  return runGit(dir, ["count-objects", "-v"]);
}

test("in a partial clone lore fetches nothing, answers what it can, and status says what is left out", async () => {
  const src = new TestRepo();
  for (let i = 1; i <= 6; i++) {
    src.write("a.txt", lines(...Array.from({ length: i * 3 }, (_, k) => `a line ${k}`)));
    src.write(`notes/n${i}.txt`, lines(`note ${i}`));
    src.commit(`change ${i}`);
  }
  src.git("mv", "a.txt", "b.txt");
  src.write("b.txt", lines(...Array.from({ length: 19 }, (_, k) => `a line ${k}`)));
  src.commit("rename a to b, with an edit");
  src.write("fresh.txt", lines("made", "once")).commit("a file made in one commit");
  src.git("config", "uploadpack.allowFilter", "true");
  const dir = join(tempDir("lore-partial-"), "clone");
  runGit(join(dir, ".."), ["clone", "-q", "--filter=blob:none", `file://${src.dir}`, dir]);
  const missing = missingObjects(dir);
  expect(missing).toBeGreaterThan(0);
  const before = objectsHere(dir);

  // The daemon's background pass, in this process.
  const ix = await indexFor(dir);
  await ix.refresh();
  const logged: string[] = [];
  const warmup = new Warmup(ix, 2, (m) => logged.push(m));
  warmup.kick();
  while (warmup.active) await Bun.sleep(20);
  expect(logged.join("\n")).toContain("partial clone");

  const env = { LORE_HOME: home };
  const history = cli(dir, ["history", "notes/n3.txt", "--json"], env);
  expect(history.stderr).toBe("");
  expect(history.code).toBe(0);
  expect(history.json.commits.map((c: { subject: string }) => c.subject)).toEqual(["change 3"]);
  const hotspots = cli(dir, ["hotspots", "--json"], env);
  expect(hotspots.code).toBe(0);
  expect(hotspots.json.results.length).toBeGreaterThan(0);
  // One commit made the file and its blob is here (the checkout): blamed without git.
  expect(cli(dir, ["blame", "fresh.txt", "--json"], env).code).toBe(0);
  // b.txt's older contents are on the remote only: a clear error, no download.
  const blame = cli(dir, ["blame", "b.txt", "--json"], env);
  expect(blame.code).toBe(1);
  expect(blame.json.error.message).toContain("partial clone");
  const status = cli(dir, ["status", "--json"], env);
  expect(status.json.partialClone).toBe(true);
  expect(status.json.leftOut.join(" ")).toContain("blame of every file");

  expect(missingObjects(dir)).toBe(missing);
  expect(objectsHere(dir)).toBe(before);
  src.cleanup();
});

test("a repository with a deleted object keeps the history before the damage, logs the error once, and says where history stops", async () => {
  const r = new TestRepo();
  for (let i = 1; i <= 8; i++) {
    r.write("a.txt", lines(...Array.from({ length: i }, (_, k) => `line ${k}`)));
    r.write(`b${i}.txt`, lines(`b ${i}`));
    r.commit(`c${i}`);
  }
  const tree = r.git("rev-parse", "HEAD~4^{tree}").trim();
  rmSync(join(r.dir, ".git", "objects", tree.slice(0, 2), tree.slice(2)));
  // What git itself gives before it stops.
  const git = Bun.spawnSync(["git", "log", "--raw", "--format=%H"], { cwd: r.dir });
  expect(git.exitCode).not.toBe(0);
  const printed = git.stdout.toString().split("\n").filter((l) => /^[0-9a-f]{40}$/.test(l)).length;
  expect(printed).toBeGreaterThan(0);

  const logged: string[] = [];
  const ix = await indexFor(r.dir);
  ix.log = (m) => logged.push(m);
  await ix.refresh();
  await ix.refresh();
  expect(logged.length).toBe(1);
  expect(logged[0]).toContain(`unable to read tree ${tree}`);
  closeAll();
  // Another process (or a restarted daemon) does not try again either.
  const again = await indexFor(r.dir);
  again.log = (m) => logged.push(m);
  await again.refresh();
  expect(logged.length).toBe(1);

  const status = cli(r.dir, ["status", "--json"], { LORE_HOME: home });
  expect(status.json.state).toBe("fresh");
  expect(status.json.commitsIndexed).toBe(printed);
  expect(status.json.leftOut.join(" ")).toContain(`history stops after ${printed} commits`);
  const history = cli(r.dir, ["history", "a.txt", "--json"], { LORE_HOME: home });
  expect(history.code).toBe(0);
  expect(history.json.commits.length).toBe(printed);
  // Questions that do not need the damaged part still answer.
  expect(cli(r.dir, ["hotspots", "--json"], { LORE_HOME: home }).code).toBe(0);
  r.cleanup();
});
