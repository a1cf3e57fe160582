/** Where the daemon lives — socket, lock, pid and log files — worked out the same way by every client and by the daemon. */
import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";

export interface DaemonPaths {
  /** The 0700 folder that holds the socket and its lock. */
  dir: string;
  socket: string;
  /** The daemon holds an exclusive lock on this file for its whole life. */
  lock: string;
  pid: string;
  log: string;
}

/** Unix socket paths of 108 bytes or more fail to bind; stay well under. */
const MAX_SOCKET_BYTES = 100;

function uid(): number {
  return typeof process.getuid === "function" ? process.getuid() : userInfo().uid;
}

function socketDir(home: string): string {
  // An explicit LORE_HOME (tests, a second setup) must get its own daemon, so its socket lives inside it.
  if (process.env.LORE_HOME) return home;
  if (process.env.XDG_RUNTIME_DIR) return join(process.env.XDG_RUNTIME_DIR, "lore");
  return home;
}

export function daemonPaths(): DaemonPaths {
  const home = loreHome();
  let dir = socketDir(home);
  let socket = join(dir, "lore.sock");
  if (Buffer.byteLength(socket) > MAX_SOCKET_BYTES) {
    // Too long to bind: a short path of our own under /tmp, one per LORE_HOME.
    dir = `/tmp/lore-${uid()}`;
    socket = join(dir, `${createHash("sha256").update(home).digest("hex").slice(0, 16)}.sock`);
  }
  return { dir, socket, lock: socket + ".lock", pid: join(home, "daemon.pid"), log: join(home, "daemon.log") };
}

/** Creates `dir` readable by this user only, and refuses one that someone else owns or that is a symlink. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid())
    throw new LoreError("DAEMON_UNAVAILABLE", `${dir} is not a folder of yours, so lore will not put its socket there; remove it or set LORE_HOME to a folder you own.`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
