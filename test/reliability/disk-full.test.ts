import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";

/** A 4 MiB tmpfs for LORE_HOME: only root can mount one, so elsewhere the test is skipped. */
const mountPoint = join(tempDir("lore-full-"), "home");
mkdirSync(mountPoint);
const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint]).status === 0;
let r: TestRepo;

beforeAll(() => {
  r = new TestRepo();
  for (let i = 0; i < 3; i++) {
    r.write("a.txt", lines(...Array.from({ length: i + 2 }, (_, k) => `line ${k}`)));
    r.commit(`c${i}`);
  }
});
afterAll(() => {
  if (mounted) spawnSync("umount", [mountPoint]);
  r.cleanup();
});

test.skipIf(!mounted)("a full disk gives a clear error, keeps the old index, and lore recovers when space is back", () => {
  const env = { LORE_HOME: mountPoint };
  const before = cli(r.dir, ["history", "a.txt", "--json"], env);
  expect(before.code).toBe(0);
  // Fill the disk, then land enough commits that indexing them needs new pages.
  const filler = join(mountPoint, "filler");
  spawnSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=64k", "count=1000"], { stdio: "ignore" });
  r.commits((b) => {
    for (let i = 0; i < 40; i++) {
      b.write(`f${i}.txt`, "x".repeat(2000) + "\n");
      b.write("a.txt", lines(...Array.from({ length: i + 5 }, (_, k) => `line ${k} ${"y".repeat(200)}`)));
      b.commit(`more ${i} ${"m".repeat(500)}`);
    }
  });
  const full = cli(r.dir, ["history", "a.txt", "--json"], env);
  expect(full.code).toBe(1);
  expect(full.json.error.code, full.json.error.message).toBe("INDEX_WRITE_FAILED");
  expect(full.stderr).toMatch(/disk|space/);
  expect(full.stderr).not.toMatch(/\n\s+at /);
  rmSync(filler);
  const after = cli(r.dir, ["history", "a.txt", "-n", "100", "--json"], env);
  expect(after.code).toBe(0);
  expect(after.json.commits.length).toBe(43);
  expect(after.json.commits.at(-1).sha).toBe(before.json.commits.at(-1).sha);
});

test.skipIf(!mounted)("a disk that fills in the middle of an update leaves the index as it was", () => {
  const env = { LORE_HOME: mountPoint };
  expect(cli(r.dir, ["status", "--json"], env).code).toBe(0);
  const old = cli(r.dir, ["history", "a.txt", "-n", "1000", "--json"], env).json;
  // Leave ~200 KiB free: enough to open the index, not enough for 300 long commits.
  const slack = join(mountPoint, "slack");
  writeFileSync(slack, Buffer.alloc(200 * 1024));
  spawnSync("dd", ["if=/dev/zero", `of=${join(mountPoint, "filler")}`, "bs=64k", "count=1000"], { stdio: "ignore" });
  rmSync(slack);
  r.commits((b) => {
    for (let i = 0; i < 300; i++) b.write("a.txt", `v${i}\n`).commit(`long ${i} ${"z".repeat(3000)}`);
  });
  const full = cli(r.dir, ["history", "a.txt", "--json"], env);
  expect(full.code).toBe(1);
  expect(full.json.error.code).toBe("INDEX_WRITE_FAILED");
  rmSync(join(mountPoint, "filler"));
  const after = cli(r.dir, ["history", "a.txt", "-n", "1000", "--json"], env).json;
  expect(after.commits.length).toBe(old.commits.length + 300);
  expect(after.commits.slice(300)).toEqual(old.commits);
}, 120_000);

test.skipIf(!mounted)("a disk that fills during the background pass stops the pass with one clear line, and the next pass finishes when space is back", async () => {
  const { closeAll, indexFor } = await import("../../src/index/indexes.ts");
  const { Warmup } = await import("../../src/daemon/background.ts");
  const repo = new TestRepo();
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 30; i++) repo.write(`f${i}.txt`, lines(...Array.from({ length: 40 }, (_, k) => `${round % 2 ? k : k * 7} ${"w".repeat(60)}`)));
    repo.commit(`round ${round}`);
  }
  const saved = process.env.LORE_HOME;
  process.env.LORE_HOME = join(mountPoint, "pass");
  const filler = join(mountPoint, "filler-pass");
  try {
    const ix = await indexFor(repo.dir);
    await ix.refresh();
    spawnSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=64k", "count=1000"], { stdio: "ignore" });
    const logged: string[] = [];
    const full = new Warmup(ix, 2, (m) => logged.push(m));
    full.kick();
    while (full.active) await Bun.sleep(20);
    expect(logged.filter((l) => /disk is full/.test(l)).length).toBe(1);
    expect(ix.store.blame.blamedInTree()).toBeLessThan(30);
    // A question that needs no new rows answers; one that must write (churn on demand) says the disk is full.
    expect(cli(repo.dir, ["status", "--json"], { LORE_HOME: process.env.LORE_HOME! }).code).toBe(0);
    const history = cli(repo.dir, ["history", "f3.txt", "--json"], { LORE_HOME: process.env.LORE_HOME! });
    if (history.code !== 0) expect(history.json.error.code).toBe("INDEX_WRITE_FAILED");
    rmSync(filler);
    const again = new Warmup(ix, 2, () => {});
    again.kick();
    while (again.active) await Bun.sleep(20);
    expect(ix.store.blame.blamedInTree()).toBe(30);
  } finally {
    closeAll();
    rmSync(filler, { force: true });
    process.env.LORE_HOME = saved;
    repo.cleanup();
  }
}, 120_000);

test("a LORE_HOME that is a file, not a folder, gives a clear error on every face and leaves the file alone", () => {
  const file = join(tempDir("lore-home-file-"), "home");
  writeFileSync(file, "not a folder\n");
  for (const env of [{ LORE_HOME: file }, { LORE_HOME: file, LORE_NO_DAEMON: "" }] as Record<string, string>[]) {
    const got = cli(r.dir, ["blame", "a.txt", "--json"], env);
    expect(got.code).toBe(1);
    expect(got.json.error.code).toBe("INDEX_WRITE_FAILED");
    expect(got.json.error.message).toContain(`lore cannot write in its folder ${file}: a file stands where a folder should be`);
    expect(got.stderr).not.toContain("    at ");
  }
  expect(readFileSync(file, "utf8")).toBe("not a folder\n");
});
