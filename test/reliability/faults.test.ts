import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

let r: TestRepo;
let home: string;
beforeAll(() => {
  r = new TestRepo();
  for (let i = 0; i < 5; i++) {
    r.write("a.txt", lines(...Array.from({ length: i + 2 }, (_, k) => `line ${k}`)));
    r.commit(`c${i}`);
  }
  home = tempDir("lore-home-");
});
afterAll(() => r.cleanup());

function indexFile(): string {
  const repos = join(home, "repos");
  return join(repos, readdirSync(repos)[0]!, "index.db");
}

/** A fake git that prints `body` as a shell script would: the test's stand-in, not lore's. */
function fakeGit(body: string): string {
  const dir = tempDir("fake-git-");
  writeFileSync(join(dir, "git"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

test("a corrupt index file is rebuilt, the answer is right, and status says why", () => {
  const good = cli(r.dir, ["history", "a.txt", "--json"], { LORE_HOME: home });
  expect(good.code).toBe(0);
  writeFileSync(indexFile(), "this is not a database at all".repeat(200));
  const again = cli(r.dir, ["history", "a.txt", "--json"], { LORE_HOME: home });
  expect(again.code).toBe(0);
  expect(again.json).toEqual(good.json);
  const s = cli(r.dir, ["status", "--json"], { LORE_HOME: home });
  expect(s.json.rebuilt).toContain("corrupt");
});

test("a truncated index file is rebuilt too", () => {
  const good = cli(r.dir, ["blame", "a.txt", "--json"], { LORE_HOME: home });
  const f = indexFile();
  cli(r.dir, ["status"], { LORE_HOME: home });
  truncateSync(f, Math.floor(statSync(f).size / 3));
  const again = cli(r.dir, ["blame", "a.txt", "--json"], { LORE_HOME: home });
  expect(again.code).toBe(0);
  expect(again.json).toEqual(good.json);
});

test("git missing from the PATH is a clear error", () => {
  const res = cli(r.dir, ["status", "--json"], { PATH: tempDir("empty-path-") });
  expect(res.code).toBe(1);
  expect(res.json.error.code).toBe("GIT_MISSING");
  expect(res.stderr).toContain("git");
});

test("a git too old names the version lore needs", () => {
  const dir = fakeGit('echo "git version 2.17.1"');
  const res = cli(r.dir, ["status", "--json"], { PATH: `${dir}:/usr/bin:/bin` });
  expect(res.json.error.code).toBe("GIT_TOO_OLD");
  expect(res.json.error.message).toContain("2.30");
});

test("a hanging git times out with a clear error", () => {
  const real = "/usr/bin/git";
  const dir = fakeGit(`case "$*" in *--version*) exec ${real} "$@";; *log*) sleep 30;; *) exec ${real} "$@";; esac`);
  const started = Date.now();
  const res = cli(r.dir, ["history", "a.txt", "--json"], { PATH: `${dir}:/usr/bin:/bin`, LORE_HOME: tempDir("lore-home-"), LORE_GIT_TIMEOUT_MS: "1500" });
  expect(res.code).toBe(1);
  expect(res.json.error.code).toBe("GIT_TIMEOUT");
  expect(Date.now() - started).toBeLessThan(15_000);
});

test("a repository deleted after indexing is NOT_A_REPO, not a stale answer", () => {
  const gone = new TestRepo();
  gone.write("x.txt", "x\n");
  gone.commit("x");
  expect(cli(gone.dir, ["history", "x.txt"], { LORE_HOME: home }).code).toBe(0);
  const dir = gone.dir;
  gone.cleanup();
  const res = cli("/", ["history", "x.txt", "--repo", dir, "--json"], { LORE_HOME: home });
  expect(res.json.error.code).toBe("NOT_A_REPO");
});

test("lore never writes to the repository it reads", () => {
  const snapshot = (dir: string) => {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push(`${p} ${statSync(p).mtimeMs} ${readFileSync(p).toString("base64")}`);
      }
    };
    walk(dir);
    return out.join("\n");
  };
  const fresh = new TestRepo();
  fresh.write("a.txt", lines(1, 2, 3));
  fresh.write(".git-blame-ignore-revs", "");
  fresh.commit("a");
  fresh.write("a.txt", lines(1, 2, 3, 4));
  fresh.commit("b");
  const before = snapshot(fresh.dir);
  const h = tempDir("lore-home-");
  const questions = [["blame", "a.txt"], ["history", "a.txt"], ["intent", "a.txt", "-L", "1,2"], ["cochange", "a.txt"], ["hotspots"], ["contributors"], ["status"], ["history", "a.txt", "--no-follow"], ["blame", "a.txt", "--until", "HEAD~1"]];
  for (const args of questions) expect(cli(fresh.dir, [...args, "--json"], { LORE_HOME: h }).code).toBe(0);
  // And through a daemon, whose watcher, commit-graph and background blame run meanwhile.
  const dh = tempDir("lore-d-");
  try {
    for (const args of questions) expect(cli(fresh.dir, [...args, "--json"], { LORE_HOME: dh, LORE_NO_DAEMON: "0" }).code).toBe(0);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && cli(fresh.dir, ["status", "--json"], { LORE_HOME: dh, LORE_NO_DAEMON: "0" }).json?.filesBlamed < 2) spawnSync("sleep", ["0.1"]);
  } finally {
    cli(fresh.dir, ["daemon", "stop"], { LORE_HOME: dh, LORE_NO_DAEMON: "0" });
  }
  // Compared line by line, so a failure names the file that changed.
  const after = snapshot(fresh.dir).split("\n");
  expect(after.filter((l) => !before.split("\n").includes(l))).toEqual([]);
  expect(after.length).toBe(before.split("\n").length);
  fresh.cleanup();
}, 60_000);

test("a repository deleted while the daemon indexes it is NOT_A_REPO, and the daemon goes on serving others", async () => {
  const dh = tempDir("lore-d-");
  const doomed = new TestRepo();
  doomed.commits((b) => {
    for (let i = 0; i < 300; i++) b.write("a.txt", `v${i}\n`).commit(`c${i}`);
  });
  const env = { LORE_HOME: dh, LORE_NO_DAEMON: "0" };
  try {
    expect(cli(r.dir, ["status", "--json"], env).code).toBe(0);
    const contributors = loreCommand(["contributors", "--json"]);
    const indexing = spawn(contributors.command, contributors.args, { cwd: doomed.dir, env: { ...process.env, ...env }, stdio: "ignore" });
    const closed = new Promise((res) => indexing.on("close", res));
    await new Promise((res) => setTimeout(res, 150));
    const dir = doomed.dir;
    doomed.cleanup();
    await closed;
    const gone = cli("/", ["history", "a.txt", "--repo", dir, "--json"], env);
    expect(gone.json.error.code).toBe("NOT_A_REPO");
    const other = cli(r.dir, ["history", "a.txt", "--json"], env);
    expect(other.code).toBe(0);
    expect(other.json.commits.length).toBe(5);
  } finally {
    cli(r.dir, ["daemon", "stop"], env);
  }
}, 60_000);
