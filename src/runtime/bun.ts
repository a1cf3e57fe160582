/** The Bun side of the runtime seam: bun:sqlite and Bun.serve on a Unix socket. */
import { Database } from "bun:sqlite";
import type { Runtime, SqlDatabase, SqlStatement, SqlValue } from "./types.ts";

function openDatabase(path: string, options?: { readonly?: boolean }): SqlDatabase {
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
  openDatabase,
  async serveUnix(path, fetch) {
    const server = Bun.serve({ unix: path, fetch });
    return { stop: async () => void (await server.stop(true)) };
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
