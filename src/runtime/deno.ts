/** The Deno side of the runtime seam: node:sqlite and Deno.serve on a Unix socket. */
import { DatabaseSync } from "node:sqlite";
import type { Runtime, SqlDatabase, SqlStatement, SqlValue } from "./types.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

function openDatabase(path: string, options?: { readonly?: boolean }): SqlDatabase {
  const db = new DatabaseSync(path, { readOnly: options?.readonly ?? false });
  const cache = new Map<string, SqlStatement>();
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      let st = cache.get(sql);
      if (!st) {
        const q = db.prepare(sql);
        // node:sqlite rows have a null prototype; spread them into plain objects.
        st = {
          all: (...p: SqlValue[]) => q.all(...(p as never[])).map((r) => ({ ...(r as object) })) as never,
          column: (...p: SqlValue[]) => q.all(...(p as never[])).map((r) => Object.values(r as object)[0] as SqlValue),
          get: (...p: SqlValue[]) => {
            const r = q.get(...(p as never[]));
            return r === undefined ? undefined : ({ ...(r as object) } as never);
          },
          run: (...p: SqlValue[]) => Number(q.run(...(p as never[])).changes),
        };
        cache.set(sql, st);
      }
      return st;
    },
    close: () => db.close(),
  };
}

export const runtime: Runtime = {
  name: "deno",
  collectGarbage() {},
  async write(fd, text) {
    const out = fd === 1 ? Deno.stdout : Deno.stderr;
    const bytes = new TextEncoder().encode(text);
    for (let off = 0; off < bytes.length; ) off += await out.write(bytes.subarray(off));
  },
  async isTerminal(fd) {
    return (fd === 1 ? Deno.stdout : Deno.stderr).isTerminal();
  },
  openDatabase,
  async serveUnix(path, fetch) {
    const server = Deno.serve({ path, onListen() {} }, fetch);
    return { stop: async () => void (await server.shutdown()) };
  },
  async serveLoopback(fetch) {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, fetch);
    return { port: (server.addr as { port: number }).port, stop: async () => void (await server.shutdown()) };
  },
  async serveTcp(hostname, port, _idleS, fetch) {
    // Deno.serve has no idle timeout of its own: its HTTP layer times out slow headers itself.
    const server = Deno.serve({ hostname, port, onListen() {} }, fetch);
    return {
      port: (server.addr as { port: number }).port,
      stop: async () => void (await server.shutdown()),
      // shutdown() waits for the answers under way; past the grace the process ends them by exiting.
      drain: async (graceMs: number) => void (await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, graceMs))])),
    };
  },
  async requestUnix(path, method, urlPath, body, timeoutMs) {
    const client = Deno.createHttpClient({ proxy: { transport: "unix", path } });
    try {
      const res = await fetch(`http://localhost${urlPath}`, {
        method,
        body,
        client,
        headers: body ? { "content-type": "application/json" } : undefined,
        signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
      } as RequestInit);
      return { status: res.status, body: await res.text() };
    } finally {
      client.close();
    }
  },
  selfCommand(main) {
    // The daemon needs what the CLI has: files, subprocesses, the socket, the environment.
    return [process.execPath, "run", "--allow-all", main];
  },
};
