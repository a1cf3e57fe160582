/**
 * A clone with one file's content missing from its object store (a damaged snapshot): the
 * answers built on many blames answer from what git can read and say what they left out; the
 * file itself is a clear error naming the object; nothing asks git again and again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { gitBlame } from "../helpers/git-truth.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { Warmup } from "../../src/daemon/background.ts";

let src: TestRepo;
let dir = "";
let blob = "";
let object = "";
let away = "";

beforeAll(() => {
  isolateHome();
  src = new TestRepo();
  src.write("lib/a.js", lines("a1", "a2", "a3")).write("lib/vendor.lib", lines("vendored", "code")).write("README", lines("read me"));
  src.commit("first");
  src.write("lib/a.js", lines("a1", "a2 changed", "a3", "a4"));
  src.commit("second", { name: "Bob Example", email: "bob@example.com" });
  ({ dir, blob, object, away } = damagedClone(src, "HEAD:lib/vendor.lib"));
});

/** A --no-local clone of `from` with its objects loose and the one `name` names taken away (kept at `away`). */
function damagedClone(from: TestRepo, name: string): { dir: string; blob: string; object: string; away: string } {
  const dir = join(tempDir(), "damaged");
  runGit(from.dir, ["clone", "-q", "--no-local", from.dir, dir]);
  // Loose objects, then one blob taken away.
  const pack = join(dir, ".git", "objects", "pack");
  const packs = readdirSync(pack).filter((f) => f.endsWith(".pack"));
  const keep = tempDir("lore-pack-");
  for (const f of readdirSync(pack)) renameSync(join(pack, f), join(keep, f));
  for (const f of packs) runGit(dir, ["unpack-objects", "-q"], {}, readFileSync(join(keep, f)));
  const blob = runGit(dir, ["rev-parse", name]).trim();
  const object = join(dir, ".git", "objects", blob.slice(0, 2), blob.slice(2));
  const away = join(keep, "object");
  renameSync(object, away);
  return { dir, blob, object, away };
}
afterAll(() => {
  closeAll();
  src.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

test("owners and contributors answer from the files git can read and list the one it cannot, with why", async () => {
  const who = await ask("contributors", dir, {});
  const readable = ["lib/a.js", "README"].flatMap((p) => gitBlame(dir, "HEAD", p));
  expect(who.totalLines).toBe(readable.length);
  expect(who.results.map((r: any) => [r.email, r.lines])).toEqual([
    ["alice@example.com", readable.filter((o) => o.email === "alice@example.com").length],
    ["bob@example.com", readable.filter((o) => o.email === "bob@example.com").length],
  ]);
  expect(who.leftOut).toHaveLength(1);
  expect(who.leftOut[0]).toStartWith("lib/vendor.lib: ");
  expect(who.leftOut[0]).toContain(blob);
  const owners = await ask("owners", dir, { path: "lib", by: "folder" });
  expect(owners.leftOut).toEqual(who.leftOut);
  // Listed as a file with no lines anyone owns, as a binary file is.
  expect(owners.results.map((r: any) => [r.path, r.lines, r.main?.email])).toEqual([
    ["lib/a.js", 4, "alice@example.com"],
    ["lib/vendor.lib", 0, undefined],
  ]);
  // As of an older commit (no head key: git names the path, lore finds the object).
  const first = runGit(dir, ["rev-list", "--max-parents=0", "HEAD"]).trim();
  const old = await ask("owners", dir, { until: first });
  expect(old.leftOut).toHaveLength(1);
  expect(old.leftOut[0]).toContain(blob);
  // The text face says it too.
  const text = cli(dir, ["contributors"]);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`left out: lib/vendor.lib: `);
  // The background pass ends; what it could not fill, status says, with the object.
  const ix = await indexFor(dir);
  const warmup = new Warmup(ix, 2, () => {});
  warmup.kick();
  while (warmup.active) await Bun.sleep(20);
  const status = await ask("status", dir, {});
  expect(status.leftOut.some((l: string) => l.includes("lib/vendor.lib") && l.includes(blob))).toBe(true);
  expect(status.leftOut.some((l: string) => l.includes("code search") && l.includes(blob))).toBe(true);
});

test("history, log, show and hotspots answer with git's line counts of the files it can read; the unreadable file's are unknown", async () => {
  const first = runGit(dir, ["rev-list", "--max-parents=0", "HEAD"]).trim();
  const show = await ask("show", dir, { rev: first });
  const numstat = runGit(dir, ["show", "--numstat", "--format=", first, "--", "lib/a.js", "README"]).trim().split("\n").map((l) => l.split("\t"));
  for (const [add, del, path] of numstat) expect(show.files.find((f: any) => f.path === path)).toMatchObject({ additions: Number(add), deletions: Number(del) });
  expect(show.files.find((f: any) => f.path === "lib/vendor.lib").additions).toBeUndefined();
  const log = await ask("log", dir, {});
  expect(log.commits.map((c: any) => c.sha)).toEqual(runGit(dir, ["log", "--format=%h", "--abbrev=12"]).trim().split("\n"));
  const history = await ask("history", dir, { path: "lib/a.js" });
  expect(history.commits.map((c: any) => [c.additions, c.deletions])).toEqual([
    [2, 1],
    [3, 0],
  ]);
  expect(log.leftOut).toHaveLength(1);
  expect(log.leftOut[0]).toStartWith("lib/vendor.lib: ");
  expect(log.leftOut[0]).toContain(blob);
  // Listed without counts, and not called binary (git's numstat would need the content it lacks).
  expect(log.commits.at(-1).files.find((f: any) => f.path === "lib/vendor.lib")).toEqual({ path: "lib/vendor.lib", status: "A" });
  const vendored = await ask("history", dir, { path: "lib/vendor.lib" });
  expect(vendored.commits.map((c: any) => [c.status, c.additions, c.unreadable])).toEqual([["A", null, true]]);
  expect(vendored.leftOut).toEqual(log.leftOut);
  for (const args of [["log"], ["history", "lib/vendor.lib"]]) {
    const text = cli(dir, args);
    expect({ args, code: text.code }).toEqual({ args, code: 0 });
    expect(text.stdout).toContain("left out: lib/vendor.lib: ");
    expect(text.stdout).toContain("unreadable");
    expect(text.stdout).not.toContain("binary");
  }
  // A readable file's history says nothing was left out.
  expect(history.leftOut).toBeUndefined();
  expect((await ask("hotspots", dir, {})).results.map((r: any) => r.path)).toContain("lib/a.js");
});

test("blame of the file itself is GIT_FAILED naming the missing object", async () => {
  const err = await ask("blame", dir, { path: "lib/vendor.lib", until: "HEAD" }).catch((e) => e);
  expect(err.code).toBe("GIT_FAILED");
  expect(err.message).toContain(blob);
  expect(err.message).toMatch(/missing/);
});

test("show lists the unreadable file as left out, not as binary; the readable commit is git's numstat", async () => {
  const [second, first] = runGit(dir, ["rev-list", "HEAD"]).trim().split("\n") as [string, string];
  const show = await ask("show", dir, { rev: first });
  const vendored = show.files.find((f: any) => f.path === "lib/vendor.lib");
  expect(vendored).toEqual({ path: "lib/vendor.lib", status: "A" });
  expect(show.leftOut).toHaveLength(1);
  expect(show.leftOut[0]).toStartWith("lib/vendor.lib: ");
  expect(show.leftOut[0]).toContain(blob);
  const text = cli(dir, ["show", first]);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`left out: lib/vendor.lib: `);
  expect(text.stdout).not.toMatch(/vendor\.lib\s+binary/);
  // A commit git can read whole: every file as git show --numstat counts it, nothing left out.
  const readable = await ask("show", dir, { rev: second });
  const numstat = runGit(dir, ["show", "--numstat", "--format=", second]).trim().split("\n").map((l) => l.split("\t"));
  expect(readable.files.map((f: any) => [String(f.additions), String(f.deletions), f.path])).toEqual(numstat);
  expect(readable.leftOut).toBeUndefined();
});

test("code search through git answers from the paths git can read and says which it left out", async () => {
  // What git log -S / -G lists once the unreadable path is left out of its walk.
  const truth = (flag: string) => runGit(dir, ["log", flag, "--format=%h", "--abbrev=12", "--", ".", ":(exclude)lib/vendor.lib"]).trim().split("\n");
  expect(() => runGit(dir, ["log", "-Sa1", "--format=%h"])).toThrow();
  for (const [input, flag] of [
    [{ query: "a1", code: true }, "-Sa1"],
    [{ query: "a[0-9]", code: true, regex: true }, "-Ga[0-9]"],
    [{ query: "changed", code: true, oldest: true }, "-Schanged"],
  ] as const) {
    const r = await ask("search", dir, input);
    expect(r.results.map((c: any) => c.sha)).toEqual(truth(flag));
    expect(r.leftOut).toHaveLength(1);
    expect(r.leftOut[0]).toStartWith("lib/vendor.lib: ");
    expect(r.leftOut[0]).toContain(blob);
  }
  const text = cli(dir, ["search", "--code", "a1"]);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain("left out: lib/vendor.lib: ");
});

test("review of a file whose older content is missing keeps the rest of the answer and says what it left out", async () => {
  const repo = new TestRepo();
  repo.write("a.js", lines("a1", "a2", "a3")).write("old.js", lines("o1", "o2", "o3"));
  repo.commit("first");
  repo.write("old.js", lines("o1", "o2 new", "o3"));
  repo.commit("second", { name: "Bob Example", email: "bob@example.com" });
  // The first version of old.js is gone: git diff HEAD reads, git blame of old.js cannot.
  const d = damagedClone(repo, "HEAD~1:old.js");
  try {
    writeFileSync(join(d.dir, "a.js"), lines("a1", "a3"));
    writeFileSync(join(d.dir, "old.js"), lines("o1", "o3"));
    const r = await ask("review", d.dir, {});
    expect(r.files.map((f: any) => [f.path, f.additions, f.deletions])).toEqual([
      ["a.js", 0, 1],
      ["old.js", 0, 1],
    ]);
    // a.js's deleted line 2 as git blames it.
    const owner = gitBlame(d.dir, "HEAD", "a.js")[1]!;
    expect(Object.keys(r.files[0].rewrites)).toEqual([owner.sha]);
    expect(Object.values(r.files[0].rewrites)).toEqual([[[2, 2]]]);
    expect(r.files[1].rewrites).toBeUndefined();
    expect(r.leftOut).toHaveLength(1);
    expect(r.leftOut[0]).toStartWith("old.js: ");
    expect(r.leftOut[0]).toContain(d.blob);
    const text = cli(d.dir, ["review"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("left out: old.js: ");
  } finally {
    repo.cleanup();
    rmSync(d.dir, { recursive: true, force: true });
  }
});

test("a blame that failed is remembered, not asked of git again: the background pass ends, and the answer stays the same", async () => {
  // The object comes back: were lore asking git again, the file would now count.
  mkdirSync(join(dir, ".git", "objects", blob.slice(0, 2)), { recursive: true });
  renameSync(away, object);
  const ix = await indexFor(dir);
  const warmup = new Warmup(ix, 2, () => {});
  warmup.kick();
  while (warmup.active) await Bun.sleep(20);
  const again = await ask("contributors", dir, {});
  expect(again.leftOut).toHaveLength(1);
  // The change index, which waits for the object rather than failing on it every pass, is filled now.
  expect((await ask("status", dir, {})).leftOut.some((l: string) => l.includes("code search"))).toBe(false);
  expect((await ask("search", dir, { query: "vendored", code: true })).results.length).toBe(1);
  expect(existsSync(object)).toBe(true);
});

test("a failed blame is kept in the index: a new process does not ask git again until the failure is old, then counts the repaired file", () => {
  // A fresh CLI (as a restarted daemon) has nothing in memory: the index says the blame failed.
  const fresh = cli(dir, ["contributors"]);
  expect(fresh.code).toBe(0);
  expect(fresh.stdout).toContain(`left out: lib/vendor.lib: `);
  // Two failed blames of it are kept: at HEAD (contributors) and at the first commit (owners --until).
  const failures = () => cli(dir, ["status", "--json"]).json.leftOut.find((l: string) => l.startsWith("blame of "));
  expect(failures()).toStartWith("blame of 2 files git cannot read");
  // Once the failure is older than lore keeps it, git is asked again, and the repaired file counts as git blames it.
  const later = cli(dir, ["contributors", "--json"], { LORE_TEST_FAILED_BLAME_MS: "0" });
  expect(later.code).toBe(0);
  expect(later.json.leftOut).toBeUndefined();
  expect(later.json.totalLines).toBe(["lib/a.js", "lib/vendor.lib", "README"].flatMap((p) => gitBlame(dir, "HEAD", p)).length);
  // The blame made, its failure is gone from the index; the one at the first commit is kept.
  expect(failures()).toStartWith("blame of 1 file git cannot read");
});
