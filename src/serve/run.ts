/** Runs lore serve: its clones fetched, the questions answered in this process, the HTTP listener, the fetch timer, until a signal. */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoreError, toLoreError } from "../errors.ts";
import { ensureGit } from "../git/version.ts";
import { Repos } from "../daemon/repos.ts";
import { BLAME_WORKERS } from "../queries/answer.ts";
import { sealWith } from "../queries/continue-token.ts";
import { maxBytes } from "../mcp/cap.ts";
import { mcpDeadline } from "../mcp/deadline.ts";
import { runtime } from "../runtime/index.ts";
import { VERSION } from "../version.ts";
import { logger } from "./access-log.ts";
import { createServeApp } from "./app.ts";
import { serveInstructions } from "./instructions.ts";
import { mcpEndpoint } from "./mcp-endpoint.ts";
import { serveCall } from "./ask.ts";
import { Clones } from "./clones.ts";
import { importPublished } from "./published-index.ts";
import { allowedHosts, isLoopback } from "./listen.ts";
import type { ServeOptions } from "./options.ts";
import { RateLimit } from "./rate-limit.ts";
import { ServeScope } from "./scope.ts";
import { TokenFile } from "./tokens.ts";

/** The secret tokens are sealed with: the one replicas share, else one of this data folder's own (made once, 0600). */
function secretOf(opts: ServeOptions): Buffer {
  if (opts.secret) return opts.secret;
  const path = join(opts.data, "secret");
  try {
    return readFileSync(path);
  } catch {
    writeFileSync(path, randomBytes(32), { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    return readFileSync(path);
  }
}

/** How long a stopping server still answers, each answer closing its connection, before it stops listening. */
const STOP_NOTICE_MS = 500;

export async function runServe(opts: ServeOptions): Promise<number> {
  process.umask(0o077);
  const tokens = new TokenFile(opts.tokens);
  const loopback = isLoopback(opts.listen.host);
  if (!loopback && tokens.list().length === 0)
    throw new LoreError("USAGE", `lore serve listens beyond this machine (${opts.listen.host}) only with tokens: make one with lore serve token add NAME${opts.tokens === join(opts.data, "tokens") ? "" : ` --tokens ${opts.tokens}`}, or listen on 127.0.0.1.`);
  await ensureGit();
  mkdirSync(opts.data, { recursive: true, mode: 0o700 });
  const log = logger(opts.log);
  const clones = new Clones(opts.data);
  const started = Date.now();
  const repos = new Repos(() => ({ pid: process.pid, version: VERSION, uptimeS: Math.round((Date.now() - started) / 1000) }), BLAME_WORKERS);
  const adopt = (root: string) => (file: string, head: string) => repos.adopt(root, file, head);
  for (const repo of opts.repos) {
    const clone = await clones.open(repo).catch((err) => {
      throw new LoreError(toLoreError(err).code, `lore serve cannot clone ${repo.name} from ${repo.source}: ${toLoreError(err).message}`);
    });
    if (repo.index) await importPublished(clone, adopt(clone.root), log);
  }
  // A token names the repository by its served name and HEAD, not by this replica's folder: any replica with the secret opens it.
  // The state files (.mailmap, ignore-revs) are the head's in a clone nobody edits, and a question about the disk reads the head.
  const names = new Map(clones.all.map((c) => [c.root, c.repo.name]));
  sealWith(secretOf(opts), (b) => ({ ...b, root: names.get(b.root) ?? b.root, state: names.has(b.root) ? "" : b.state, disk: undefined }));
  const scope = new ServeScope(() => clones.all);
  const deadlineMs = mcpDeadline(process.env, (line) => log({ event: "config", message: line }));
  const app = createServeApp({
    tokens,
    tokensRequired: () => !loopback || tokens.list().length > 0,
    hosts: allowedHosts(opts.listen, opts.allowHosts),
    allowOrigins: opts.allowOrigins,
    rate: new RateLimit(opts.rate),
    clientTimeoutMs: opts.clientTimeoutS * 1000,
    log,
    health: () => ({ status: "ok", version: VERSION, repos: clones.all.length }),
    answer: mcpEndpoint({
      scope,
      call: serveCall(repos, scope),
      noDaemon: true,
      maxBytes: maxBytes(),
      log: (line) => log({ event: "error", message: line }),
      deadlineMs,
      progress: async (ticket) => repos.deadlines.progress(ticket),
    }, serveInstructions(clones.all.map((c) => c.repo.name))),
  });
  // Idle longer than a body may take, by more than Bun's 4 s timer granularity: a body too slow gets its 408 before the connection closes.
  // Once stopping, each answer says Connection: close, so a client's next request opens a new connection rather than meet a closing one.
  let stopping = false;
  const answer = async (req: Request) => {
    const res = await app.fetch(req);
    if (!stopping) return res;
    const headers = new Headers(res.headers);
    headers.set("connection", "close");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
  const server = await runtime.serveTcp(opts.listen.host, opts.listen.port, opts.clientTimeoutS + 5, answer);
  const host = opts.listen.host.includes(":") ? `[${opts.listen.host}]` : opts.listen.host;
  log({ event: "listening", url: `http://${host}:${server.port}/mcp`, repos: clones.all.map((c) => c.repo.name), version: VERSION, tokens: tokens.list().length });
  if (loopback && tokens.list().length === 0) log({ event: "warning", message: "no tokens: any program on this machine may ask; lore serve token add NAME makes one" });
  const fetching = new Set<string>();
  const timer = setInterval(() => {
    for (const clone of clones.all) {
      if (fetching.has(clone.repo.name)) continue;
      fetching.add(clone.repo.name);
      const t0 = Date.now();
      clones
        .refresh(clone.repo.name)
        .then(async (moved) => {
          if (moved) log({ event: "fetch", repo: clone.repo.name, head: clone.head, ms: Date.now() - t0 });
          if (moved && clone.repo.index) await importPublished(clone, adopt(clone.root), log);
        })
        .catch((err) => log({ event: "fetch", repo: clone.repo.name, outcome: toLoreError(err).code, message: toLoreError(err).message }))
        .finally(() => fetching.delete(clone.repo.name));
    }
  }, opts.fetchEveryMs);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => resolve());
  });
  clearInterval(timer);
  // Answers under way are finished (each within its deadline) rather than cut: a restart costs clients a refused connection, not a lost answer.
  log({ event: "stopping" });
  stopping = true;
  await new Promise((r) => setTimeout(r, STOP_NOTICE_MS));
  await server.drain((deadlineMs ?? 30_000) + 2000);
  repos.closeAll();
  log({ event: "stopped" });
  return 0;
}
