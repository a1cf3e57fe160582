import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { lines, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, daemonPids, lore, loreSync, sleep, stopDaemons, until } from "./daemon-helpers.ts";

let repo: TestRepo;
const homes: string[] = [];

function home(): string {
  const h = daemonHome();
  homes.push(h);
  return h;
}

beforeAll(() => {
  repo = new TestRepo();
  repo.write("a.txt", lines("one", "two", "three"));
  repo.commit("First");
  repo.write("a.txt", lines("one", "TWO", "three"));
  repo.commit("Second");
}, 60_000);

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
  repo.cleanup();
}, 60_000);

test("eight clients racing at once end with exactly one daemon", async () => {
  const h = home();
  const runs = await Promise.all(Array.from({ length: 8 }, () => lore(h, repo.dir, ["status", "--json"])));
  for (const r of runs) expect(r.code).toBe(0);
  const pids = new Set(runs.map((r) => r.json.daemon.pid));
  expect(pids.size).toBe(1);
  await sleep(300);
  expect(daemonPids(h)).toEqual([...pids]);
});

test("a question starts the daemon, and lore daemon stop stops it", async () => {
  const h = home();
  const first = loreSync(h, repo.dir, ["blame", "a.txt", "--json"]);
  expect(first.code).toBe(0);
  expect(first.json.hunks.map((h: any) => h[0])).toEqual([1, 2, 3]);
  const status = loreSync(h, repo.dir, ["daemon", "status", "--json"]);
  expect(status.code).toBe(0);
  expect(status.json.running).toBe(true);
  expect(daemonPids(h)).toEqual([status.json.pid]);
  const stop = loreSync(h, repo.dir, ["daemon", "stop"]);
  expect(stop.code).toBe(0);
  expect(stop.stdout).toContain(`pid ${status.json.pid}`);
  await until(() => daemonPids(h).length === 0);
  expect(existsSync(status.json.socket)).toBe(false);
  expect(loreSync(h, repo.dir, ["daemon", "status", "--json"]).json.running).toBe(false);
});

test("stopping a daemon that never ran says so and succeeds, even before LORE_HOME exists", () => {
  const fresh = join(home(), "not-made-yet");
  for (const h of [fresh, home()]) {
    const stop = loreSync(h, repo.dir, ["daemon", "stop"]);
    expect({ code: stop.code, out: stop.stdout.trim(), err: stop.stderr }).toEqual({ code: 0, out: "no lore daemon is running", err: "" });
  }
  expect(existsSync(fresh)).toBe(false);
});

test("a daemon killed with -9 leaves a stale socket that the next question cleans up", async () => {
  const h = home();
  const before = loreSync(h, repo.dir, ["status", "--json"]).json.daemon.pid;
  process.kill(before, "SIGKILL");
  await until(() => daemonPids(h).length === 0);
  expect(existsSync(join(h, "lore.sock"))).toBe(true);
  const after = loreSync(h, repo.dir, ["blame", "a.txt", "--json"]);
  expect(after.code).toBe(0);
  expect(after.json.lines).toBe(3);
  const pid = loreSync(h, repo.dir, ["status", "--json"]).json.daemon.pid;
  expect(pid).not.toBe(before);
  expect(daemonPids(h)).toEqual([pid]);
});

test("a plain file where the socket should be is replaced", async () => {
  const h = home();
  writeFileSync(join(h, "lore.sock"), "not a socket");
  const r = loreSync(h, repo.dir, ["status", "--json"]);
  expect(r.code).toBe(0);
  expect(r.json.daemon.pid).toBeGreaterThan(0);
});

test("clients of another version replace the daemon, eight at once leaving exactly one", async () => {
  const h = home();
  const old = loreSync(h, repo.dir, ["status", "--json"], { LORE_VERSION_OVERRIDE: "0.0.1-old" }).json.daemon;
  expect(old.version).toBe("0.0.1-old");
  const now = loreSync(h, repo.dir, ["status", "--json"]).json.daemon;
  expect(now.version).not.toBe("0.0.1-old");
  expect(now.pid).not.toBe(old.pid);
  await until(() => daemonPids(h).length === 1);
  expect(daemonPids(h)).toEqual([now.pid]);
  const runs = await Promise.all(Array.from({ length: 8 }, () => lore(h, repo.dir, ["status", "--json"], { LORE_VERSION_OVERRIDE: "0.0.2-new" })));
  for (const r of runs) expect(r.code).toBe(0);
  const pids = new Set(runs.map((r) => r.json.daemon.pid));
  expect(pids.size).toBe(1);
  expect(runs[0]!.json.daemon.version).toBe("0.0.2-new");
  await until(() => daemonPids(h).length === 1);
  expect(daemonPids(h)).toEqual([...pids]);
});

test("lore daemon start runs it in the background, and it exits once idle", async () => {
  const h = home();
  const start = loreSync(h, repo.dir, ["daemon", "start", "--idle", "1"]);
  expect(start.code).toBe(0);
  const pid = loreSync(h, repo.dir, ["daemon", "status", "--json"]).json.pid;
  expect(daemonPids(h)).toEqual([pid]);
  // The status call above counts as use: the daemon lives about a second past it.
  await until(() => daemonPids(h).length === 0, 5000, 100);
  expect(loreSync(h, repo.dir, ["daemon", "status"]).code).toBe(1);
  expect(readFileSync(join(h, "daemon.log"), "utf8")).toContain("idle for 1 s");
});

test("a LORE_HOME too deep for a socket path gets a short private socket under /tmp", async () => {
  const h = join(home(), "a-folder-name-long-enough".repeat(5));
  mkdirSync(h, { recursive: true });
  const r = loreSync(h, repo.dir, ["status", "--json"]);
  expect(r.code).toBe(0);
  const d = loreSync(h, repo.dir, ["daemon", "status", "--json"]).json;
  expect(d.socket.startsWith(`/tmp/lore-${process.getuid!()}/`)).toBe(true);
  expect(Buffer.byteLength(d.socket)).toBeLessThan(108);
  expect(statSync(dirname(d.socket)).mode & 0o777).toBe(0o700);
  expect(statSync(d.socket).mode & 0o777).toBe(0o600);
  await stopDaemons(h);
  for (const suffix of ["", ".lock", ".lock-journal", ".spawn", ".spawn-journal"]) rmSync(d.socket + suffix, { force: true });
});

test("--no-daemon and LORE_NO_DAEMON=1 answer in the calling process", async () => {
  const h = home();
  const a = loreSync(h, repo.dir, ["status", "--json", "--no-daemon"]);
  const b = loreSync(h, repo.dir, ["status", "--json"], { LORE_NO_DAEMON: "1" });
  expect(a.json.daemon).toBeNull();
  expect(b.json.daemon).toBeNull();
  expect(a.json.head).toBe(repo.head());
  expect(daemonPids(h)).toEqual([]);
});
