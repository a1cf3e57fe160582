/** The daemon's life after it starts: its log lines, requests in flight, exit after an idle time or when its socket is taken away. */
import { readFileSync, rmSync, statSync } from "node:fs";
import type { DaemonPaths } from "../client/socket-path.ts";

export const DEFAULT_IDLE_S = 1800;

/** One line in daemon.log (the daemon's stderr is that file). */
export function log(message: string): void {
  process.stderr.write(`${new Date().toISOString()} [${process.pid}] ${message}\n`);
}

/** Seconds of idleness before exit: --idle, else LORE_IDLE_TIMEOUT, else 30 minutes; 0 means never. */
export function idleSeconds(flag: string | undefined): number {
  const text = flag ?? process.env.LORE_IDLE_TIMEOUT;
  const n = text === undefined || text === "" ? DEFAULT_IDLE_S : Number(text);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_IDLE_S;
}

/** The pid in daemon.pid, if there is one. */
export function readPid(path: string): number | undefined {
  try {
    const n = Number(readFileSync(path, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

export class Lifecycle {
  readonly startedAt = Date.now();
  private lastActive = Date.now();
  private inFlight = 0;
  private stopping = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private socketIno: number | undefined;
  private readonly hooks: (() => void | Promise<void>)[] = [];
  private resolveDone!: () => void;
  /** Resolves once the daemon has stopped. */
  readonly done = new Promise<void>((r) => (this.resolveDone = r));

  constructor(
    readonly paths: DaemonPaths,
    readonly idleMs: number,
  ) {}

  get uptimeS(): number {
    return Math.floor((Date.now() - this.startedAt) / 1000);
  }

  begin(): void {
    this.inFlight++;
    this.lastActive = Date.now();
  }

  end(): void {
    this.inFlight--;
    this.lastActive = Date.now();
  }

  /** Runs `hook` when the daemon stops, before the socket goes away. */
  onStop(hook: () => void | Promise<void>): void {
    this.hooks.push(hook);
  }

  /** Starts the clock: idle exit, and exit when someone removes or replaces our socket (nobody could reach us). */
  start(): void {
    this.socketIno = statSync(this.paths.socket, { throwIfNoEntry: false })?.ino;
    const every = Math.max(100, Math.min(30_000, (this.idleMs || 60_000) / 4));
    this.timer = setInterval(() => {
      if (statSync(this.paths.socket, { throwIfNoEntry: false })?.ino !== this.socketIno) void this.stop("its socket was removed or replaced");
      else if (this.idleMs > 0 && this.inFlight === 0 && Date.now() - this.lastActive >= this.idleMs) void this.stop(`idle for ${Math.round(this.idleMs / 1000)} s`);
    }, every);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async stop(reason: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.timer);
    log(`stopping: ${reason}`);
    for (const hook of this.hooks) {
      try {
        await hook();
      } catch (err) {
        log(`while stopping: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    // Only our own socket: a daemon that replaced us owns the one at this path now.
    if (this.socketIno !== undefined && statSync(this.paths.socket, { throwIfNoEntry: false })?.ino === this.socketIno) rmSync(this.paths.socket, { force: true });
    if (readPid(this.paths.pid) === process.pid) rmSync(this.paths.pid, { force: true });
    this.resolveDone();
  }
}
