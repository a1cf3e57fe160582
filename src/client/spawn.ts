/** Starts the daemon when none answers and waits until one does: however many clients race, one daemon serves them. */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { isLocked, tryLock } from "../store/file-lock.ts";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";
import { runtime } from "../runtime/index.ts";
import { sameBuild } from "./build-id.ts";
import { health, rpcCall, type Health } from "./rpc-client.ts";
import { ensurePrivateDir } from "./private-dir.ts";
import type { DaemonPaths } from "./socket-path.ts";

export interface EnsureOptions {
  /** Seconds without a request before the daemon exits (default: LORE_IDLE_TIMEOUT, else the daemon's own default). */
  idleS?: number;
  timeoutMs?: number;
}

const MAX_LOG_BYTES = 5 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `lore daemon run` detached from us, its output appended to daemon.log; `exited` tells whether it has ended since. */
export function spawnDaemon(paths: DaemonPaths, opts: EnsureOptions = {}): { exited: () => boolean } {
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  const argv = [...runtime.selfCommand(main), "daemon", "run", ...(opts.idleS !== undefined ? ["--idle", String(opts.idleS)] : [])];
  mkdirSync(dirname(paths.log), { recursive: true, mode: 0o700 });
  if ((statSync(paths.log, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(paths.log, paths.log + ".1");
  const fd = openSync(paths.log, "a", 0o600);
  let exited = false;
  try {
    // From source the runtime resolves packages from the project folder; a compiled binary needs no folder.
    const cwd = existsSync(main) ? dirname(dirname(main)) : loreHome();
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ["ignore", fd, fd], cwd, env: process.env, shell: false });
    child.on("exit", () => (exited = true));
    child.on("error", () => (exited = true));
    child.unref();
  } finally {
    closeSync(fd);
  }
  return { exited: () => exited };
}

/** Asks a daemon of another build to stop, and waits until it no longer answers. */
async function replace(paths: DaemonPaths, deadline: number): Promise<void> {
  await rpcCall(paths.socket, "shutdown", {}, { anyVersion: true, timeoutMs: 2000 }).catch(() => {});
  for (;;) {
    const h = await health(paths.socket, 500);
    if (!h || sameBuild(h) || Date.now() > deadline) return;
    await sleep(20);
  }
}

/**
 * Resolves with the daemon's health once a daemon of this build answers, starting one when
 * needed. One client at a time spawns (a lock); the daemon's own lock settles any other race.
 */
export async function ensureDaemon(paths: DaemonPaths, opts: EnsureOptions = {}): Promise<Health> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  ensurePrivateDir(paths.dir);
  let spawns = 0;
  while (Date.now() < deadline) {
    const h = await health(paths.socket);
    if (h && sameBuild(h)) return h;
    if (h) {
      await replace(paths, deadline);
      continue;
    }
    const spawning = spawns < 3 ? tryLock(paths.socket + ".spawn") : null;
    if (!spawning) {
      await sleep(20);
      continue;
    }
    try {
      // A daemon that is still starting, or on its way out, makes this one wait for the lock or leave: harmless.
      const child = spawnDaemon(paths, opts);
      spawns++;
      while (Date.now() < deadline) {
        const up = await health(paths.socket);
        if (up) break;
        // It left (another daemon won the lock, or it failed: daemon.log says why): look again.
        if (child.exited()) break;
        await sleep(15);
      }
    } finally {
      spawning.release();
    }
  }
  const how = isLocked(paths.lock) ? "a daemon holds the lock but does not answer" : "it did not start";
  throw new LoreError("DAEMON_UNAVAILABLE", `The lore daemon is not answering (${how}); see ${paths.log}, run lore daemon stop, or pass --no-daemon.`);
}
