/** The Bun side of the runtime seam: bun:sqlite and Bun.serve on a Unix socket. */
import type { Database as BunDatabase } from "bun:sqlite";
import { isatty } from "node:tty";
import type { Runtime, SqlDatabase, SqlStatement, SqlValue } from "./types.ts";

function openDatabase(path: string, options?: { readonly?: boolean }): SqlDatabase {
  // Loaded on first use: the CLI, which only talks to the daemon, never pays for SQLite.
  const { Database } = require("bun:sqlite") as { Database: typeof BunDatabase };
  const db = options?.readonly ? new Database(path, { readonly: true }) : new Database(path, { create: true, strict: true });
  const cache = new Map<string, SqlStatement>();
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      let st = cache.get(sql);
      if (!st) {
        const q = db.query(sql);
        st = {
          all: (...p: SqlValue[]) => q.all(...(p as never[])) as never,
          column: (...p: SqlValue[]) => q.values(...(p as never[])).map((r) => r[0] as SqlValue),
          get: (...p: SqlValue[]) => (q.get(...(p as never[])) ?? undefined) as never,
          run: (...p: SqlValue[]) => q.run(...(p as never[])).changes,
        };
        cache.set(sql, st);
      }
      return st;
    },
    close: () => db.close(),
  };
}

export const runtime: Runtime = {
  name: "bun",
  collectGarbage() {
    Bun.gc(true);
  },
  async write(fd, text) {
    await Bun.write(fd === 1 ? Bun.stdout : Bun.stderr, text);
  },
  async isTerminal(fd) {
    // isatty, as Deno asks it: Bun.stdout.stat() went through Bun's thread pool, which cost a
    // text answer ~4 ms more than the same answer in JSON.
    return isatty(fd);
  },
  openDatabase,
  async serveUnix(path, fetch) {
    const server = Bun.serve({ unix: path, fetch });
    return { stop: async () => void (await server.stop(true)) };
  },
  async serveLoopback(fetch) {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch });
    return { port: server.port!, stop: async () => void (await server.stop(true)) };
  },
  async serveTcp(hostname, port, idleS, fetch) {
    // Bun caps idleTimeout at 255 s.
    const server = Bun.serve({ hostname, port, idleTimeout: Math.min(255, Math.max(1, idleS)), fetch });
    return {
      port: server.port!,
      stop: async () => void (await server.stop(true)),
      drain: async (graceMs) => {
        await Promise.race([server.stop(false), new Promise((r) => setTimeout(r, graceMs))]);
        await server.stop(true);
      },
    };
  },
  async requestUnix(path, method, urlPath, body, timeoutMs) {
    const res = await fetch(`http://localhost${urlPath}`, {
      unix: path,
      method,
      body,
      headers: body ? { "content-type": "application/json" } : undefined,
      signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
    } as RequestInit);
    return { status: res.status, body: await res.text() };
  },
  selfCommand(main) {
    // A compiled binary runs its own bundle (argv is ["bun", "/$bunfs/root/lore", ...]); from source bun needs the script.
    return import.meta.url.includes("/$bunfs/") ? [process.execPath] : [process.execPath, main];
  },
};
