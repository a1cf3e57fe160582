/** Where the daemon lives — socket, lock, pid and log files — worked out the same way by every client and by the daemon. */
import { userInfo } from "node:os";
import { join } from "node:path";
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

/**
 * A short stable name for a long LORE_HOME. Not a secret, so FNV-1a does: node:crypto
 * costs ~15 ms to load in a compiled binary, more than the whole warm call.
 */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

export function uid(): number {
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
    socket = join(dir, `${fnv1a64(home)}.sock`);
  }
  return { dir, socket, lock: socket + ".lock", pid: join(home, "daemon.pid"), log: join(home, "daemon.log") };
}
