import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { spawn } from "node:child_process";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { BOB, TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/schema.ts";
import { indexPath } from "../../src/index/index-file.ts";

let r: TestRepo;
/** Answers from an index built by this version, to compare the migrated ones with. */
let fresh: Record<string, unknown>;

const QUESTIONS: [string, string[]][] = [
  ["blame", ["blame", "b.txt", "--json"]],
  ["blame-range", ["blame", "a.txt", "-L", "2,4", "--json"]],
  ["history", ["history", "b.txt", "--json"]],
  ["intent", ["intent", "b.txt", "-L", "1,3", "--json"]],
];

function answers(home: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, args] of QUESTIONS) {
    const a = cli(r.dir, args, { LORE_HOME: home });
    expect(a.code).toBe(0);
    out[name] = a.json;
  }
  return out;
}

/** A LORE_HOME whose index was written by schema version 1, with rows that name this repository's commits. */
function versionOneHome(): string {
  const home = tempDir("lore-home-v1-");
  const prev = process.env.LORE_HOME;
  process.env.LORE_HOME = home;
  const path = indexPath(r.dir);
  process.env.LORE_HOME = prev;
  mkdirSync(join(path, ".."), { recursive: true });
  const db = new Database(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(MIGRATIONS[0]!);
  db.exec("PRAGMA user_version = 1");
  const head = r.git("rev-parse", "HEAD").trim();
  const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  for (const [k, v] of [["repoRoot", r.dir], ["indexedHead", head], ["treeHead", head], ["churnHead", head]]) meta.run(k, v);
  db.prepare("INSERT INTO commits (sha, parents, author, email, time, commit_time, subject, message, nfiles) VALUES (?, '', 'Old', 'old@x', 1, 1, 'old row', 'old row', 1)").run(head);
  db.exec("INSERT INTO paths (path) VALUES ('b.txt')");
  db.exec("INSERT INTO blames (key, path, blob, lines, binary, used_at) VALUES ('k', 'b.txt', NULL, 1, 0, 1)");
  db.prepare("INSERT INTO blame_hunks (blame_id, start, end, sha, orig_path, orig_start) VALUES (1, 1, 1, ?, 'b.txt', 1)").run(head);
  db.close();
  return home;
}

/** The schema version of the index lore uses now: the one keyed by the common git dir (an older one, under the root's folder, is moved there). */
function userVersion(home: string): number {
  const prev = process.env.LORE_HOME;
  process.env.LORE_HOME = home;
  const path = indexPath(realpathSync(join(r.dir, ".git")));
  process.env.LORE_HOME = prev;
  const db = new Database(path, { readonly: true });
  try {
    return Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
  } finally {
    db.close();
  }
}

beforeAll(() => {
  r = new TestRepo();
  r.write("a.txt", lines("one", "two", "three", "four", "five")).commit("first\n\nA body that says why.");
  r.write("b.txt", lines("b1", "b2", "b3")).commit("a subject on\ntwo lines\n\nand a body", BOB);
  r.git("checkout", "-q", "-b", "side");
  r.write("a.txt", lines("one", "TWO", "three", "four", "five")).commit("side change");
  r.git("checkout", "-q", "-");
  r.write("b.txt", lines("b1", "B2", "b3")).commit("main change");
  r.git("merge", "-q", "--no-ff", "-m", "merge side", "side");
  r.git("mv", "b.txt", "c.txt");
  r.commit("rename b to c");
  r.git("mv", "c.txt", "b.txt");
  r.write("b.txt", lines("b1", "B2", "b3", "b4")).commit("rename back, one more line");
  fresh = answers(tempDir("lore-home-fresh-"));
});
afterAll(() => r.cleanup());

test("an index written by schema 1 opens, is rebuilt, answers as a fresh one does, and status says why", () => {
  const home = versionOneHome();
  expect(answers(home)).toEqual(fresh);
  expect(userVersion(home)).toBe(SCHEMA_VERSION);
  const s = cli(r.dir, ["status", "--json"], { LORE_HOME: home });
  expect(s.code).toBe(0);
  expect(s.json.rebuilt).toContain("index format changed");
});

test("kill -9 during the migration leaves an index that opens, and the answers are right", async () => {
  const home = versionOneHome();
  const status = loreCommand(["status", "--json"]);
  const child = spawn(status.command, status.args, {
    cwd: r.dir,
    env: { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1", LORE_TEST_MIGRATE_HOLD_MS: "20000" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the migration never started")), 20000);
    child.stderr!.on("data", (c: Buffer) => {
      if (c.toString().includes("migrating")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.kill("SIGKILL");
  await new Promise((resolve) => child.on("close", resolve));
  // The migration's one transaction never committed: the file is still version 1.
  expect(userVersion(home)).toBe(1);
  expect(answers(home)).toEqual(fresh);
  expect(userVersion(home)).toBe(SCHEMA_VERSION);
});

test("commits keep their parents and messages exactly, stored without repeating the subject", () => {
  const { Store } = require("../../src/store/store.ts") as typeof import("../../src/store/store.ts");
  const store = Store.open(join(tempDir("lore-store-"), "index.db"), "/nowhere");
  const h = (c: string, n = 40) => c.repeat(n);
  const cases = [
    { sha: h("1"), parents: [], subject: "root", message: "root" },
    { sha: h("2"), parents: [h("1")], subject: "one parent", message: "one parent\n\nwith a body\n" },
    { sha: h("3"), parents: [h("1"), h("2")], subject: "a merge", message: "a merge" },
    { sha: h("4"), parents: [h("1"), h("2"), h("3")], subject: "an octopus", message: "an octopus\n\nof three" },
    { sha: h("5"), parents: [h("a")], subject: "joined lines", message: "joined\nlines\n\nbody" },
    { sha: h("6", 64), parents: [h("b", 64), h("c", 64)], subject: "", message: "" },
  ];
  store.transaction(() => {
    for (const c of cases) store.history.insertCommit({ ...c, author: "A", email: "a@x", time: 1, commitTime: 2, changes: [] });
  });
  for (const c of cases) {
    const row = store.history.commitBySha(c.sha)!;
    expect([row.parents, row.subject, row.message]).toEqual([c.parents.join(" "), c.subject, c.message]);
  }
  store.close();
});
