import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, rmSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseSince, SnapshotStore } from "../../src/memory/store.ts";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { repoHash } from "../helpers/repo-hash.ts";

let repo: TestRepo;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write(".gitignore", "*.log\n").write("a.txt", lines(1, 2, 3)).write("src/b.ts", "export const b = 1;\n").write("tool.sh", "#!/bin/sh\n");
  chmodSync(join(repo.dir, "tool.sh"), 0o755);
  repo.commit("first");
  writeFileSync(join(repo.dir, ".git", "info", "exclude"), "secret.txt\n");
  // A clean filter (git-lfs's writes into .git): a snapshot keeps the work tree's bytes and runs none.
  writeFileSync(join(repo.dir, ".git", "info", "attributes"), "*.txt filter=spy\n");
  repo.git("config", "filter.spy.clean", `touch ${filterRan}; cat`);
});
afterAll(() => {
  expect(existsSync(filterRan)).toBe(false);
  rmSync(dirname(filterRan), { recursive: true, force: true });
  repo.cleanup();
});
const filterRan = join(tempDir("lore-filter-"), "ran");

describe("snapshots of the work tree", () => {
  test("a snapshot records tracked and untracked files, honours .gitignore and info/exclude, and writes nothing to the repository", async () => {
    repo.write("a.txt", lines(1, 2, 3, 4)).write("new.txt", "new\n").write("debug.log", "noise\n").write("secret.txt", "s\n");
    const before = repoHash(repo.dir);
    const s = await ask("snapshot", repo.dir, { message: "start" });
    expect(s).toMatchObject({ repo: repo.dir, message: "start", files: 2, created: true });
    expect(s.id).toMatch(/^[0-9a-f]{12}$/);
    const again = await ask("snapshot", repo.dir, {});
    expect(again).toMatchObject({ id: s.id, created: false });
    // What changed since HEAD: the edit and the untracked file, not the ignored ones.
    const c = await ask("changes", repo.dir, { since: s.id });
    expect(c.files).toEqual([]);
    const list = await ask("snapshots", repo.dir, {});
    expect(list.snapshots.map((x: { id: string }) => x.id)).toEqual([s.id]);
    await ask("changes", repo.dir, { patch: true });
    expect(repoHash(repo.dir)).toBe(before);
  });

  test("changes lists the files an edit changed since a snapshot, with git's +/- and patch", async () => {
    const base = (await ask("snapshot", repo.dir, {})).id;
    repo.write("a.txt", lines(1, 3, 4, 5)).write("src/c.ts", "c\nc\n").remove("new.txt");
    const c = await ask("changes", repo.dir, { since: base });
    expect(c.since.id).toBe(base);
    expect(c.files).toEqual([
      { path: "a.txt", additions: 1, deletions: 1 },
      { path: "new.txt", status: "D", additions: 0, deletions: 1 },
      { path: "src/c.ts", status: "A", additions: 2, deletions: 0 },
    ]);
    expect(c.filesTotal).toBe(3);
    const only = await ask("changes", repo.dir, { since: base, paths: [join(repo.dir, "src")], patch: true });
    expect(only.files.map((f: { path: string }) => f.path)).toEqual(["src/c.ts"]);
    expect(only.patch).toContain("+++ b/src/c.ts\n@@ -0,0 +1,2 @@\n+c\n+c\n");
    const cut = await ask("changes", repo.dir, { since: base, patch: true, diffLines: 3 });
    expect(cut.patch.split("\n").length).toBe(4);
    expect(cut.truncated).toBe(true);
    // Without a snapshot named, the last one; a duration older than all of them, the oldest.
    const last = await ask("snapshot", repo.dir, {});
    expect((await ask("changes", repo.dir, {})).since.id).toBe(last.id);
    const oldest = (await ask("snapshots", repo.dir, { limit: 1000 })).snapshots.at(-1).id;
    expect((await ask("changes", repo.dir, { since: "2h" })).since.id).toBe(oldest);
  });

  test("changes asked again with nothing edited answers the same, its files and patch page on with continue; a snapshot asked for is the base", async () => {
    const r = new TestRepo();
    try {
      for (let i = 0; i < 130; i++) r.write(`m/${String(i).padStart(3, "0")}.txt`, `file ${i}\n`);
      r.commit("many");
      for (let i = 0; i < 130; i++) r.write(`m/${String(i).padStart(3, "0")}.txt`, `file ${i} edited ${"é".repeat(60)}\n`);
      const first = await ask("changes", r.dir, { patch: true, diffLines: 5000, budget: 16_384 });
      expect(first.since.id).toBe("HEAD");
      // Asking does not use up the changes: the same answer again.
      expect(await ask("changes", r.dir, { patch: true, diffLines: 5000, budget: 16_384 })).toEqual(first);
      const pages = [first];
      while (pages.at(-1).continue && pages.length < 20) pages.push(await ask("changes", r.dir, { patch: true, diffLines: 5000, budget: 16_384, continue: pages.at(-1).continue }));
      expect(pages.length).toBeGreaterThan(2);
      expect(pages.flatMap((p) => p.files.map((f: { path: string }) => f.path))).toEqual(r.git("diff", "--name-only").trim().split("\n"));
      expect(pages.map((p) => p.patch ?? "").join("")).toBe(r.git("diff", "--no-color", "--no-ext-diff"));
      // A snapshot asked for: changes since it are none.
      await ask("snapshot", r.dir, {});
      expect((await ask("changes", r.dir, {})).files).toEqual([]);
    } finally {
      r.cleanup();
    }
  });

  test("snapshots lists newest first, and only those that changed a path when one is named", async () => {
    const all = await ask("snapshots", repo.dir, {});
    expect(all.snapshots.length).toBe(2);
    const times = all.snapshots.map((s: { time: string }) => s.time);
    expect([...times].sort().reverse()).toEqual(times);
    const src = await ask("snapshots", repo.dir, { path: join(repo.dir, "src") });
    expect(src.snapshots.length).toBe(1);
    expect(src.path).toBe("src");
    // MCP has no lore_snapshots: lore_changes lists them on request, under the same paths.
    const listed = await ask("changes", repo.dir, { list: true, paths: [join(repo.dir, "src")] });
    expect(listed.snapshots).toEqual(src.snapshots);
    expect((await ask("changes", repo.dir, {})).snapshots).toBeUndefined();
    expect((await ask("snapshots", repo.dir, { limit: 1 })).truncated).toBe(true);
  });

  test("since: snapshot ids, durations, yesterday and dates; anything else is refused", () => {
    const now = new Date("2025-01-02T12:00:00Z");
    expect(parseSince("10m", now)).toEqual({ time: new Date("2025-01-02T11:50:00Z") });
    expect(parseSince("2h", now)).toEqual({ time: new Date("2025-01-02T10:00:00Z") });
    expect(parseSince("yesterday", now)).toEqual({ time: new Date("2025-01-01T12:00:00Z") });
    expect(parseSince("abc123", now)).toEqual({ id: "abc123" });
    expect(parseSince("2025-01-01T00:00:00Z", now)).toEqual({ time: new Date("2025-01-01T00:00:00Z") });
    expect(() => parseSince("last tuesday", now)).toThrow(/since takes/);
  });
});

describe("restore", () => {
  test("writes the named files back as a snapshot had them, after a snapshot that undoes it", async () => {
    const gitBefore = repoHash(join(repo.dir, ".git"));
    repo.write("a.txt", lines("good"));
    const good = await ask("snapshot", repo.dir, { message: "good" });
    repo.write("a.txt", lines("broken")).write("src/extra.ts", "x\n").write("tool.sh", "#!/bin/sh\n");
    chmodSync(join(repo.dir, "tool.sh"), 0o644);
    const r = await ask("restore", repo.dir, { paths: [join(repo.dir, "a.txt"), join(repo.dir, "src"), join(repo.dir, "tool.sh")], from: good.id });
    expect(r.from.id).toBe(good.id);
    expect(r.restored.sort()).toEqual(["a.txt", "src/b.ts", "src/c.ts", "tool.sh"]);
    expect(r.removed).toEqual(["src/extra.ts"]);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines("good"));
    expect(existsSync(join(repo.dir, "src/extra.ts"))).toBe(false);
    expect(statSync(join(repo.dir, "tool.sh")).mode & 0o777).toBe(0o755);
    expect((await ask("git", repo.dir, { args: ["diff", "--stat", "--", "tool.sh"] })).stdout).toBe(""); // lore's git: plain git diff would refresh .git/index
    // The backup snapshot holds what was overwritten: restoring from it undoes the restore.
    await ask("restore", repo.dir, { paths: [join(repo.dir, "a.txt")], from: r.backup });
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines("broken"));
    expect(repoHash(join(repo.dir, ".git"))).toBe(gitBefore);
  });

  test("never without named paths, never outside the repository, never from an unknown snapshot", async () => {
    const id = (await ask("snapshots", repo.dir, {})).snapshots[0].id;
    const err = (input: Record<string, unknown>) => ask("restore", repo.dir, input).then(() => undefined, (e) => e.code);
    expect(await err({ paths: [], from: id })).toBe("BAD_ARGUMENT");
    expect(await err({ paths: ["/etc/passwd"], from: id })).toBe("PATH_OUTSIDE_REPO");
    expect(await err({ paths: [join(repo.dir, "..", "x")], from: id })).toBe("PATH_OUTSIDE_REPO");
    expect(await err({ paths: [join(repo.dir, "a.txt")], from: "0000000000" })).toBe("BAD_ARGUMENT");
    expect(await err({ paths: [join(repo.dir, "nothing-here")], from: id })).toBe("PATH_NOT_FOUND");
    const r = cli(repo.dir, ["restore", "--from", id]);
    expect(r.code).toBe(2);
  });
});

test("old snapshots are pruned by count, and git prune runs in lore's store with a ref per kept snapshot", async () => {
  const other = new TestRepo();
  try {
    other.write("a.txt", "0\n").commit("a");
    process.env.LORE_SNAPSHOT_MAX_COUNT = "2";
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) {
      other.write("a.txt", `${i}\n`);
      ids.push((await ask("snapshot", other.dir, {})).id);
    }
    const kept = (await ask("snapshots", other.dir, {})).snapshots.map((s: { id: string }) => s.id);
    expect(kept).toEqual([ids[3], ids[2]]);
    expect((await ask("status", other.dir, {})).snapshots).toMatchObject({ count: 2, keepCount: 2, keepHours: 72 });
    const store = new SnapshotStore({ root: other.dir, gitDir: join(other.dir, ".git"), commonDir: join(other.dir, ".git") });
    expect(existsSync(join(store.dir, "lore-pruned"))).toBe(true);
    const refs = readFileSync(join(store.dir, "packed-refs"), "utf8");
    expect(refs.match(/refs\/snapshots\//g)!.length).toBe(2);
    // Every kept snapshot is still whole.
    for (const s of store.list()) expect(runGit(other.dir, ["--git-dir", store.dir, "cat-file", "-t", s.id]).trim()).toBe("commit");
  } finally {
    delete process.env.LORE_SNAPSHOT_MAX_COUNT;
    other.cleanup();
  }
});
