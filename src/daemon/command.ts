/** `lore daemon start|stop|status|run`: manage the background service every question goes through. */
import { parseCommandArgv } from "../cli/argv.ts";
import { didYouMean } from "../nearest.ts";
import { sameBuild } from "../client/build-id.ts";
import { health, rpcCall, type Health } from "../client/rpc-client.ts";
import { daemonPaths, type DaemonPaths } from "../client/socket-path.ts";
import { ensureDaemon } from "../client/spawn.ts";
import { LoreError } from "../errors.ts";
import { isLocked } from "../store/file-lock.ts";
import { idleSeconds, readPid } from "./lifecycle.ts";

const HELP = `lore daemon — the background service that keeps every repository's index open and current

Usage:
  lore daemon start [--idle SECONDS]   start it in the background (questions do this on their own)
  lore daemon stop                     stop it
  lore daemon status [--json]          whether it runs: pid, version, uptime, socket, log
  lore daemon run [--idle SECONDS]     run it in the foreground, logging to stderr

It exits after --idle seconds without a question (default LORE_IDLE_TIMEOUT, else 1800; 0: never).
Questions take --no-daemon (or LORE_NO_DAEMON=1) to answer in their own process instead.`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUnlocked(paths: DaemonPaths, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isLocked(paths.lock)) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

async function stop(paths: DaemonPaths): Promise<number> {
  const h = await health(paths.socket);
  if (h) {
    await rpcCall(paths.socket, "shutdown", {}, { anyVersion: true, timeoutMs: 5000 }).catch(() => {});
    if (await waitUnlocked(paths, 10_000)) {
      process.stdout.write(`stopped the lore daemon (pid ${h.pid})\n`);
      return 0;
    }
  }
  if (!isLocked(paths.lock)) {
    if (!h) process.stdout.write("no lore daemon is running\n");
    return 0;
  }
  // It holds the lock but does not answer (hung, or its socket was deleted): signal it by its pid file.
  const pid = h?.pid ?? readPid(paths.pid);
  if (pid === undefined) throw new LoreError("DAEMON_UNAVAILABLE", `A process holds ${paths.lock} but lore cannot tell which; find it with: fuser ${paths.lock}`);
  signal(pid, "SIGTERM");
  if (!(await waitUnlocked(paths, 3000))) {
    signal(pid, "SIGKILL");
    await waitUnlocked(paths, 3000);
  }
  process.stdout.write(`stopped the lore daemon (pid ${pid})\n`);
  return 0;
}

function describe(h: Health, paths: DaemonPaths): Record<string, unknown> {
  return { running: true, ...h, socket: paths.socket, log: paths.log, sameVersion: sameBuild(h) };
}

async function status(paths: DaemonPaths, json: boolean): Promise<number> {
  const h = await health(paths.socket);
  const out = h ? describe(h, paths) : { running: false, socket: paths.socket, log: paths.log };
  if (json) process.stdout.write(JSON.stringify(out) + "\n");
  else if (h) process.stdout.write(`lore daemon ${h.version} (${h.commit}) running, pid ${h.pid}, up ${h.uptimeS} s\n  socket ${paths.socket}\n  log    ${paths.log}\n`);
  else process.stdout.write(`no lore daemon is running (socket ${paths.socket})\n`);
  return h ? 0 : 1;
}

export async function daemonCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgv(argv, { idle: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, "daemon", true);
  const [action, ...extra] = parsed.positionals;
  if (parsed.values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  if (action === undefined) {
    process.stderr.write(HELP + "\n");
    return 2;
  }
  if (extra.length) throw new LoreError("USAGE", `lore daemon ${action} takes no arguments; got ${extra.join(" ")}.`);
  const idle = parsed.values.idle as string | undefined;
  if (idle !== undefined && !/^\d+$/.test(idle)) throw new LoreError("USAGE", `--idle takes a number of seconds, not "${idle}".`);
  const paths = daemonPaths();
  switch (action) {
    case "start": {
      const h = await ensureDaemon(paths, { idleS: idle === undefined ? undefined : Number(idle) });
      process.stdout.write(`lore daemon ${h.version} running, pid ${h.pid}\n`);
      return 0;
    }
    case "stop":
      return stop(paths);
    case "status":
      return status(paths, parsed.values.json === true);
    case "run": {
      const { runDaemon } = await import("./daemon.ts");
      const code = await runDaemon(idleSeconds(idle));
      // Git processes still running for abandoned work must not keep a stopped daemon alive.
      process.exit(code);
    }
    default:
      throw new LoreError("USAGE", `lore daemon has no "${action}"; use start, stop, status or run.${didYouMean(action ?? "", ["start", "stop", "status", "run"], (a) => `lore daemon ${a}`)}`);
  }
}
