/** Runs lore as a subprocess against a real daemon in a temporary LORE_HOME, and finds and stops the daemons a test started. */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tempDir } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** A LORE_HOME of its own, short enough that the socket path inside it binds. */
export function daemonHome(): string {
  return tempDir("lore-d-");
}

function env(home: string, extra: Record<string, string>): Record<string, string> {
  const e: Record<string, string> = { ...(process.env as Record<string, string>) };
  // Whatever the test runner was started with, these tests are about the daemon.
  delete e.LORE_NO_DAEMON;
  delete e.LORE_VERSION_OVERRIDE;
  return { ...e, LORE_HOME: home, NO_COLOR: "1", ...extra };
}

function parse(stdout: string): any {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** `lore ...args` in `cwd`, through the daemon of `home`. */
export function lore(home: string, cwd: string, args: string[], extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const cmd = loreCommand(args);
    const child = spawn(cmd.command, cmd.args, { cwd, env: env(home, extra), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, json: parse(stdout) }));
  });
}

/** The same, blocking (for sequences where nothing races). */
export function loreSync(home: string, cwd: string, args: string[], extra: Record<string, string> = {}): Run {
  const cmd = loreCommand(args);
  const r = spawnSync(cmd.command, cmd.args, { cwd, env: env(home, extra), encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: parse(r.stdout) };
}

/** Pids of `lore daemon run` processes whose LORE_HOME is `home` (read from /proc). */
export function daemonPids(home: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (!(cmd.includes("daemon") && cmd.includes("run"))) continue;
      if (readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) continue;
      if (readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(`LORE_HOME=${home}`)) pids.push(Number(name));
    } catch {}
  }
  // A git the daemon is starting shows the daemon's command line until its exec: not a daemon.
  const parent = (pid: number) => Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return pids.filter((pid) => {
    try {
      return !pids.includes(parent(pid));
    } catch {
      return false;
    }
  });
}

/** Stops the daemon of `home` the way a person would, then makes sure none is left. */
export async function stopDaemons(home: string): Promise<void> {
  await lore(home, home, ["daemon", "stop"]);
  for (const pid of daemonPids(home)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}

/** Stops the daemon of `home`, then removes the folder: the end of every test's LORE_HOME. */
export async function discardHome(home: string): Promise<void> {
  await stopDaemons(home);
  rmSync(home, { recursive: true, force: true });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true or `ms` pass; returns how long it took. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, every = 20): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await sleep(every);
  }
  return Date.now() - start;
}

/** Asks `lore ARGS --json`, then status at once: the answer, and whether a first index was still being built when it came. */
export async function askDuringIndex(home: string, cwd: string, args: string[], extra: Record<string, string> = {}): Promise<{ json: any; indexing: boolean }> {
  const r = await lore(home, cwd, [...args, "--json"], extra);
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  const s = await lore(home, cwd, ["status", "--json"], extra);
  return { json: r.json, indexing: s.json.state === "indexing" && s.json.indexedHead === null };
}
