/** What the serve benchmarks share: a `lore serve` process over one repository (restartable on its port and data), its HTTP clients of both SDK lines, a timed question. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";

export const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface Asker {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
export type Question = [name: string, args: Record<string, unknown>];
export type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> & { partial?: boolean }; content: { text: string }[] };

/** One question, timed; an error is a thrown call or a tool error result. */
export async function ask(client: Asker, [name, args]: Question): Promise<{ ms: number; error?: string; result?: ToolResult }> {
  const t0 = performance.now();
  try {
    const r = (await client.callTool({ name, arguments: args })) as ToolResult;
    return { ms: performance.now() - t0, result: r, ...(r.isError ? { error: `${name}: ${r.content[0]?.text.slice(0, 200)}` } : {}) };
  } catch (err) {
    return { ms: performance.now() - t0, error: `${name}: ${(err as Error).message}` };
  }
}

export function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
}

export interface ServeProcess {
  url: string;
  pid: number;
  /** What this process wrote on stderr (the index's own log lines: opened, indexed, imported). */
  stderr: () => string;
  /** SIGTERM, resolved when the process has exited. */
  stop: () => Promise<void>;
}

/** `lore serve` of `source` (served as `name`) with its data, tokens and access log in `home`, on `port` (0: any). */
export async function startServe(source: string, name: string, home: string, port = 0, fetchEvery = "60s"): Promise<ServeProcess> {
  const logFile = join(home, "access.log");
  const logged = () => {
    try {
      return readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  // A restart appends to the same log: its listening line is the one after what is there now.
  const from = logged().length;
  const args = ["serve", "--listen", `127.0.0.1:${port}`, "--repo", `${name}=${source}`, "--data", join(home, "serve"), "--tokens", join(home, "tokens"), "--rate", "1000000", "--fetch-every", fetchEvery, "--log", logFile];
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1" }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /"url":"([^"]+)"/.exec(logged().slice(from));
      if (m) {
        clearInterval(t);
        resolve(m[1]!);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(t);
      reject(new Error(`lore serve exited: ${err}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stderr: () => err,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A client of SDK 2 pinned to 2026-07-28 (modern) or of SDK 1 (2025-11-25), with the bearer token. */
export async function httpClient(url: string, token: string, modern: boolean): Promise<Asker> {
  const headers = { authorization: `Bearer ${token}` };
  if (modern) {
    const c = new Client2({ name: "serve-load", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await c.connect(new Http2(new URL(url), { requestInit: { headers } }));
    return c;
  }
  const c = new Client1({ name: "serve-load", version: "1" });
  await c.connect(new Http1(new URL(url), { requestInit: { headers } }));
  return c;
}
