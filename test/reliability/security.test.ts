import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { TestRepo, lines } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { daemonHome, daemonPids, loreSync, stopDaemons, until } from "../daemon/daemon-helpers.ts";

let home: string;
let repo: TestRepo;
let socket: string;

beforeAll(() => {
  home = daemonHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(1, 2, 3));
  repo.commit("a");
  expect(loreSync(home, repo.dir, ["status", "--json"]).code).toBe(0);
  socket = loreSync(home, repo.dir, ["daemon", "status", "--json"]).json.socket;
});
afterAll(async () => {
  await stopDaemons(home);
  repo.cleanup();
});

test("the socket is 0600 in a 0700 folder", () => {
  expect(statSync(socket).mode & 0o777).toBe(0o600);
  expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
});

const asNobody = process.getuid?.() === 0 && spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "true"]).status === 0;

test.skipIf(!asNobody)("another user cannot connect to the socket", () => {
  // Let nobody reach the bun binary and the test's folders, but nothing of lore's socket folder.
  chmodSync(home, 0o711);
  const probe = `fetch("http://localhost/health", { unix: ${JSON.stringify(socket)} }).then((r) => { console.log("CONNECTED", r.status); }, (e) => { console.log("REFUSED", e.code ?? e.message); })`;
  const r = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", probe], { encoding: "utf8", env: { PATH: process.env.PATH!, HOME: "/tmp" } });
  expect(r.stdout).not.toContain("CONNECTED");
  expect(r.stdout + r.stderr).toMatch(/REFUSED|EACCES|permission/i);
  chmodSync(home, 0o700);
});

test("a second daemon started by hand refuses to run beside the first, and the first keeps serving", async () => {
  const before = daemonPids(home);
  expect(before.length).toBe(1);
  const run = loreCommand(["daemon", "run"]);
  const second = spawnSync(run.command, run.args, { env: { ...process.env, LORE_HOME: home }, encoding: "utf8", timeout: 20_000 });
  expect(second.status).not.toBe(0);
  expect(second.stderr).toMatch(/already|running/i);
  await until(() => daemonPids(home).length === 1);
  expect(daemonPids(home)).toEqual(before);
  expect(loreSync(home, repo.dir, ["blame", "a.txt", "--json"]).code).toBe(0);
});
