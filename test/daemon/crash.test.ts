import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gitBlame, gitLogFile, hunksToLines } from "../helpers/git-truth.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { daemonHome, discardHome, daemonPids, lore, loreSync, stopDaemons, until } from "./daemon-helpers.ts";


let home: string;
let dir = "";

beforeAll(() => {
  home = daemonHome();
  if (!hasExpress) return;
  dir = cloneExpress(join(tempDir("lore-crash-"), "express"));
}, 60_000);

afterAll(async () => {
  await discardHome(home);
  if (dir) rmSync(join(dir, ".."), { recursive: true, force: true });
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

test.skipIf(!hasExpress)("a daemon killed with -9 mid-index leaves a usable index, and the next question restarts it and answers right", async () => {
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
  // history may answer before the restarted daemon's index ends (git answers meanwhile): wait for that end.
  const head = runGit(dir, ["rev-parse", "HEAD"]).trim();
  let status = loreSync(home, dir, ["status", "--json"]).json;
  await until(() => (status = loreSync(home, dir, ["status", "--json"]).json).indexedHead === head, 60_000, 250);
  expect(status.daemon.pid).not.toBe(pid);
  expect(status.indexedHead).toBe(head);
  expect(status.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));
  // Its pass would go on through churn and blame of all express, on the cores the next test's daemon needs.
  await stopDaemons(home);
});

test.skipIf(!hasExpress)("a daemon killed with -9 at each stage of indexing (history, churn, blame) answers right when restarted", async () => {
  const stageHome = daemonHome();
  const path = "lib/response.js";
  const truthHistory = gitLogFile(dir, "HEAD", path, true, 50);
  const truthBlame = gitBlame(dir, "HEAD", path).map((o) => o.sha);
  const stages: [string, string][] = [
    ["history", "SELECT count(*) AS n FROM reach"],
    ["churn", "SELECT count(*) AS n FROM commits WHERE churn = 1 AND (SELECT count(*) FROM meta WHERE key = 'churnHead') = 0"],
    ["blame", "SELECT count(*) AS n FROM blames"],
  ];
  try {
    for (const [stage, sql] of stages) {
      const started = await lore(stageHome, dir, ["status", "--json"]);
      const pid = started.json.daemon.pid;
      await until(() => existsSync(join(stageHome, "repos")) && readdirSync(join(stageHome, "repos")).length > 0, 5000, 5);
      const db = new Database(join(stageHome, "repos", readdirSync(join(stageHome, "repos"))[0]!, "index.db"));
      const reached = await until(() => (peek<{ n: number }>(db, sql)?.n ?? 0) > 0, 30_000, 2).then(() => true, () => false);
      process.kill(pid, "SIGKILL");
      await until(() => daemonPids(stageHome).length === 0);
      expect({ stage, integrity: peek<{ integrity_check: string }>(db, "PRAGMA integrity_check")?.integrity_check }).toEqual({ stage, integrity: "ok" });
      db.close();
      // Whether or not the stage was caught in the act (a fast machine may finish it first), answers must be right.
      const h = loreSync(stageHome, dir, ["history", path, "-n", "50", "--json"]).json;
      expect({ stage, commits: h.commits.map((c: any) => [c.sha, c.additions, c.deletions]) }).toEqual({ stage, commits: truthHistory.map((e) => [e.sha, e.additions, e.deletions]) });
      const b = loreSync(stageHome, dir, ["blame", path, "--json"]).json;
      expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual(truthBlame);
      if (!reached) console.warn(`crash test: the ${stage} stage finished before it could be interrupted`);
    }
  } finally {
    await discardHome(stageHome);
  }
}, 180_000);
