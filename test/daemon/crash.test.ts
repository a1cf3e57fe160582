import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gitLogFile } from "../helpers/git-truth.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { daemonHome, daemonPids, lore, loreSync, stopDaemons, until } from "./daemon-helpers.ts";

const BUNDLE = join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");

let home: string;
let dir: string;

beforeAll(() => {
  home = daemonHome();
  dir = join(tempDir("lore-crash-"), "express");
  runGit(join(dir, ".."), ["clone", "-q", BUNDLE, dir]);
}, 60_000);

afterAll(async () => {
  await stopDaemons(home);
  rmSync(home, { recursive: true, force: true });
  rmSync(join(dir, ".."), { recursive: true, force: true });
}, 60_000);

function indexDb(): string {
  const id = readdirSync(join(home, "repos"))[0]!;
  return join(home, "repos", id, "index.db");
}

function peek<T>(db: Database, sql: string): T | undefined {
  try {
    return (db.query(sql).get() as T | null) ?? undefined;
  } catch {
    return undefined;
  }
}

test.skipIf(!existsSync(BUNDLE))("a daemon killed with -9 mid-index leaves a usable index, and the next question restarts it and answers right", async () => {
  // status answers at once and reports the first index it started.
  const first = await lore(home, dir, ["status", "--json"]);
  expect(first.json.state).toBe("indexing");
  const pid = first.json.daemon.pid;
  await until(() => existsSync(join(home, "repos")) && readdirSync(join(home, "repos")).length > 0, 5000, 5);
  const db = new Database(indexDb());
  // Kill it as soon as the first batch of history is committed, long before the last.
  await until(() => (peek<{ n: number }>(db, "SELECT count(*) AS n FROM reach")?.n ?? 0) > 0, 10_000, 2);
  process.kill(pid, "SIGKILL");
  await until(() => daemonPids(home).length === 0);
  expect(peek<{ integrity_check: string }>(db, "PRAGMA integrity_check")?.integrity_check).toBe("ok");
  // It died mid-index: the index never claimed a head it had not finished.
  expect(peek(db, "SELECT value FROM meta WHERE key = 'indexedHead'")).toBeUndefined();
  db.close();

  const path = "lib/router/index.js";
  const history = loreSync(home, dir, ["history", path, "-n", "500", "--json"]);
  expect(history.code).toBe(0);
  expect(history.json.commits.map((c: any) => c.sha)).toEqual(gitLogFile(dir, "HEAD", path, true, 500).map((c) => c.sha));
  const status = loreSync(home, dir, ["status", "--json"]).json;
  expect(status.daemon.pid).not.toBe(pid);
  expect(status.indexedHead).toBe(runGit(dir, ["rev-parse", "HEAD"]).trim());
  expect(status.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));
});
