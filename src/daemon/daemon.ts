/** Runs the daemon: take the lock, clear a stale socket, serve the registry's questions until idle or told to stop. */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { buildId, buildTag, sameBuild } from "../client/build-id.ts";
import { health } from "../client/rpc-client.ts";
import { ensurePrivateDir } from "../client/private-dir.ts";
import { daemonPaths, type DaemonPaths } from "../client/socket-path.ts";
import { loreHome } from "../home.ts";
import { BLAME_WORKERS } from "../queries/answer.ts";
import { QUERIES } from "../queries/index.ts";
import { runtime } from "../runtime/index.ts";
import { tryLock, type Lock } from "../store/file-lock.ts";
import { Lifecycle, log, readPid } from "./lifecycle.ts";
import { reportMethods } from "../report/daemon-methods.ts";
import { REPO_IDLE_MS } from "./repo-table.ts";
import { Repos } from "./repos.ts";
import { endGitChildren } from "../git/processes.ts";
import type { Method } from "./rpc.ts";
import { createApp } from "./server.ts";
import { LoreError } from "../errors.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The lock, waiting a little for a daemon that is on its way out (a replaced version);
 * null when a daemon of this build already serves, or the holder never lets go.
 */
async function acquire(paths: DaemonPaths): Promise<Lock | null> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lock = tryLock(paths.lock);
    if (lock) return lock;
    // A daemon of another build answering is on its way out (a client asked it to go): wait for it.
    const h = await health(paths.socket, 500);
    if ((h && sameBuild(h)) || Date.now() > deadline) return null;
    await sleep(25);
  }
}

export async function runDaemon(idleS: number): Promise<number> {
  try {
    // Everything the daemon creates (socket, log, indexes) is this user's alone.
    process.umask(0o077);
  } catch {}
  const paths = daemonPaths();
  mkdirSync(loreHome(), { recursive: true, mode: 0o700 });
  ensurePrivateDir(paths.dir);
  const lock = await acquire(paths);
  if (!lock) {
    const other = readPid(paths.pid);
    log(`another lore daemon${other ? ` (pid ${other})` : ""} is already running for ${loreHome()}; this one exits and leaves it to serve`);
    return 1;
  }
  // We hold the lock, so whatever socket file is there belongs to a daemon that died.
  rmSync(paths.socket, { force: true });
  const life = new Lifecycle(paths, idleS * 1000);
  const id = buildId();
  const repos = new Repos(() => ({ pid: process.pid, version: id.version, uptimeS: life.uptimeS }), BLAME_WORKERS);
  const methods = new Map<string, Method>(QUERIES.map((q) => [q.name, (params) => repos.answer(q.name, params)]));
  methods.set("ping", () => "pong");
  // How far a call with a ticket got: the CLI's progress line, MCP's notifications/progress.
  methods.set("progress", (params) => (typeof params.ticket === "string" ? repos.deadlines.progress(params.ticket) : null));
  // The report is for people, not a question: no MCP tool, but the daemon builds and serves it.
  for (const [name, method] of reportMethods(repos, life)) methods.set(name, method);
  // lore index import hands its checked file over: the swap falls between two answers (not a question: no MCP tool).
  methods.set("index.adopt", (p) => {
    if (typeof p.repo !== "string" || typeof p.file !== "string" || typeof p.head !== "string") throw new LoreError("BAD_ARGUMENT", "index.adopt takes repo, file and head.");
    return repos.adopt(p.repo, p.file, p.head);
  });
  methods.set("shutdown", () => {
    setTimeout(() => void life.stop("asked to shut down"), 5);
    return { pid: process.pid, stopping: true };
  });
  const healthBody = () => ({ pid: process.pid, version: id.version, commit: id.commit, uptimeS: life.uptimeS, repos: repos.size, jobs: repos.deadlines.counts, socket: paths.socket });
  const app = createApp({ tag: buildTag(id), health: healthBody, methods: (n) => methods.get(n), begin: () => life.begin(), end: () => life.end() });
  const server = await runtime.serveUnix(paths.socket, app.fetch);
  chmodSync(paths.socket, 0o600);
  writeFileSync(paths.pid, `${process.pid}\n`, { mode: 0o600 });
  life.onStop(() => server.stop());
  life.onStop(() => repos.closeAll());
  // Stop means stop: git children (a commit-graph write, blames of the warm-up) end with the daemon.
  life.onStop(() => {
    const n = endGitChildren();
    if (n) log(`ended ${n} git process${n === 1 ? "" : "es"} still running`);
  });
  const sweep = setInterval(() => repos.sweep(), Math.min(60_000, REPO_IDLE_MS));
  (sweep as { unref?: () => void }).unref?.();
  life.onStop(() => clearInterval(sweep));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void life.stop(signal));
  process.on("unhandledRejection", (err) => log(`unhandled: ${err instanceof Error ? err.stack : String(err)}`));
  life.start();
  log(`lore daemon ${id.version} (${id.commit}) on ${runtime.name}, socket ${paths.socket}, ${idleS ? `exits after ${idleS} s idle` : "no idle exit"}`);
  await life.done;
  lock.release();
  return 0;
}
