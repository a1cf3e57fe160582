/** What lore needs from a JavaScript runtime: the few things Bun and Deno do differently. */

export type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, SqlValue>;

export interface SqlStatement {
  /** All rows as plain objects. */
  all(...params: SqlValue[]): Row[];
  /** The first column of every row (no object per row: a few thousand ids read a third faster). */
  column(...params: SqlValue[]): SqlValue[];
  /** The first row, or undefined when there is none (bun says null, node:sqlite undefined). */
  get(...params: SqlValue[]): Row | undefined;
  /** Runs a write; returns the number of changed rows. */
  run(...params: SqlValue[]): number;
}

export interface SqlDatabase {
  exec(sql: string): void;
  /** A prepared statement, cached per SQL text. */
  prepare(sql: string): SqlStatement;
  close(): void;
}

export interface UnixServer {
  stop(): Promise<void>;
}

export interface Runtime {
  name: "bun" | "deno";
  /**
   * Writes to stdout (1) or stderr (2). In a compiled Bun binary, merely touching
   * process.stdout costs ~15 ms (it builds Node streams): the CLI writes through here.
   */
  write(fd: 1 | 2, text: string): Promise<void>;
  /** Whether stdout (1) or stderr (2) is a terminal, for colour. */
  isTerminal(fd: 1 | 2): Promise<boolean>;
  openDatabase(path: string, options?: { readonly?: boolean }): SqlDatabase;
  /** Serves `fetch` on a Unix socket at `path`. */
  serveUnix(path: string, fetch: (req: Request) => Response | Promise<Response>): Promise<UnixServer>;
  /** Serves `fetch` over TCP on 127.0.0.1 only, on a port the system picks; resolves to that port. */
  serveLoopback(fetch: (req: Request) => Response | Promise<Response>): Promise<UnixServer & { port: number }>;
  /**
   * Serves `fetch` over TCP on `hostname:port` (0: the system picks), closing a connection idle for
   * `idleS` seconds (a client that sends its headers slowly, or not at all); resolves to the port.
   * `drain` stops listening, lets the answers under way finish for up to `graceMs`, then closes what is left.
   */
  serveTcp(hostname: string, port: number, idleS: number, fetch: (req: Request) => Response | Promise<Response>): Promise<UnixServer & { port: number; drain(graceMs: number): Promise<void> }>;
  /** Sends one HTTP request over a Unix socket; resolves to the response body as text and the status. */
  requestUnix(path: string, method: string, urlPath: string, body?: string, timeoutMs?: number): Promise<{ status: number; body: string }>;
  /**
   * Collects garbage now. A pass that reads gigabytes of git's output makes garbage faster than
   * Bun's collector frees it by itself (the change index's pass of 100,000 commits peaked 30–65 MB
   * higher without it); Deno's collector is left to itself.
   */
  collectGarbage(): void;
  /** The command line that runs this program again (to spawn the daemon): `main` is src/main.ts when run from source. */
  selfCommand(main: string): string[];
}
