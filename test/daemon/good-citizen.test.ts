import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, lore, until } from "./daemon-helpers.ts";

let repo: TestRepo;
const homes: string[] = [];

function home(): string {
  const h = daemonHome();
  homes.push(h);
  return h;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

beforeAll(() => {
  repo = new TestRepo();
  repo.write("a.txt", lines("one", "two")).commit("first");
  repo.write("a.txt", lines("one", "TWO")).commit("second");
}, 60_000);

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
  repo.cleanup();
}, 60_000);

test("lore daemon stop ends the daemon's git children too (a commit-graph write in progress)", async () => {
  const h = home();
  // A git whose commit-graph write hangs (and says its pid); every other command is the real git.
  const bin = tempDir("slow-git-");
  const real = Bun.which("git")!;
  const pidFile = join(bin, "graph.pid");
  writeFileSync(join(bin, "git"), `#!/bin/sh\nfor a in "$@"; do [ "$a" = commit-graph ] && { echo $$ > ${pidFile}; exec sleep 60; }; done\nexec ${real} "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  const extra = { PATH: `${bin}:${process.env.PATH}` };
  expect((await lore(h, repo.dir, ["history", "a.txt", "--json"], extra)).code).toBe(0);
  // (The shell makes the file before it writes the pid in it.)
  await until(() => existsSync(pidFile) && /^\d+\n$/.test(readFileSync(pidFile, "utf8")), 10_000);
  const pid = Number(readFileSync(pidFile, "utf8"));
  // Seen once in CI under load (not reproduced since): the hung git was gone before the stop; say what the daemon logged.
  if (!alive(pid)) throw new Error(`the hung commit-graph write (pid ${pid}) ended before lore daemon stop; daemon.log:\n${existsSync(join(h, "daemon.log")) ? readFileSync(join(h, "daemon.log"), "utf8") : "(none)"}`);
  expect((await lore(h, repo.dir, ["daemon", "stop"], extra)).code).toBe(0);
  await until(() => !alive(pid), 3000);
  expect(alive(pid)).toBe(false);
  expect(readFileSync(join(h, "daemon.log"), "utf8")).toContain("ended 1 git process still running");
}, 60_000);

test("a repository nobody asked about for the idle time is closed, its memory with it", async () => {
  const h = home();
  const extra = { LORE_REPO_IDLE_MS: "1500" };
  expect((await lore(h, repo.dir, ["blame", "a.txt", "--json"], extra)).code).toBe(0);
  const log = () => (existsSync(join(h, "daemon.log")) ? readFileSync(join(h, "daemon.log"), "utf8") : "");
  await until(() => log().includes(`closed ${repo.dir} (idle)`), 10_000);
  expect(log()).toContain(`closed ${repo.dir} (idle)`);
  // Asked again, it opens again and answers the same.
  const again = await lore(h, repo.dir, ["blame", "a.txt", "--json"], extra);
  expect(again.code).toBe(0);
}, 60_000);
