/** Starts the daemon when none answers and waits until one does: however many clients race, one daemon serves them. */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { isLocked, tryLock } from "../daemon/lock.ts";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";
import { runtime } from "../runtime/index.ts";
import { buildId } from "./build-id.ts";
import { health, rpcCall, type Health } from "./rpc-client.ts";
import { ensurePrivateDir, type DaemonPaths } from "./socket-path.ts";

export interface EnsureOptions {
  /** Seconds without a request before the daemon exits (default: LORE_IDLE_TIMEOUT, else the daemon's own default). */
  idleS?: number;
  timeoutMs?: number;
}

const MAX_LOG_BYTES = 5 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `lore daemon run` detached from us, its output appended to daemon.log. */
export function spawnDaemon(paths: DaemonPaths, opts: EnsureOptions = {}): number | undefined {
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  const argv = [...runtime.selfCommand(main), "daemon", "run", ...(opts.idleS !== undefined ? ["--idle", String(opts.idleS)] : [])];
  mkdirSync(dirname(paths.log), { recursive: true, mode: 0o700 });
  if ((statSync(paths.log, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(paths.log, paths.log + ".1");
  const fd = openSync(paths.log, "a", 0o600);
  try {
    // From source the runtime needs the project folder to resolve packages; a compiled binary needs nothing.
    const project = dirname(dirname(main));
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ["ignore", fd, fd], cwd: existsSync(project) ? project : loreHome(), env: process.env });
    child.unref();
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

function sameBuild(h: Health): boolean {
  const me = buildId();
  return h.version === me.version && h.commit === me.commit;
}

/** Asks a daemon of another build to stop, and waits until it has let go of the lock. */
async function replace(paths: DaemonPaths, deadline: number): Promise<void> {
  await rpcCall(paths.socket, "shutdown", {}, { anyVersion: true, timeoutMs: 2000 }).catch(() => {});
  while (isLocked(paths.lock) && Date.now() < deadline) await sleep(20);
}

/** Resolves with the daemon's health once a daemon of this build answers, starting one when needed. */
export async function ensureDaemon(paths: DaemonPaths, opts: EnsureOptions = {}): Promise<Health> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  ensurePrivateDir(paths.dir);
  while (Date.now() < deadline) {
    const h = await health(paths.socket);
    if (h && sameBuild(h)) return h;
    if (h) {
      await replace(paths, deadline);
      continue;
    }
    // One client at a time starts a daemon; the others wait for it to answer.
    const spawning = tryLock(paths.socket + ".spawn");
    if (!spawning) {
      await sleep(20);
      continue;
    }
    try {
      if (!isLocked(paths.lock)) spawnDaemon(paths, opts);
      while (Date.now() < deadline) {
        const up = await health(paths.socket);
        if (up) {
          if (sameBuild(up)) return up;
          break;
        }
        await sleep(15);
      }
    } finally {
      spawning.release();
    }
  }
  const how = isLocked(paths.lock) ? "a daemon holds the lock but does not answer" : "it did not start";
  throw new LoreError("DAEMON_UNAVAILABLE", `The lore daemon is not answering (${how}); see ${paths.log}, run lore daemon stop, or pass --no-daemon.`);
}
