/** Starts `lore serve` as a process over a real repository for the serve tests, and talks to it: the SDK's own HTTP client, raw fetch, raw TCP. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { ALICE, BOB, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

/** The origin a server clones: three files and a .mailmap, six commits by two people, a symlink that leads out of it. */
export function originRepo(): TestRepo {
  const repo = new TestRepo();
  repo.write("a.txt", "one\ntwo\nthree\n").commit("add a", ALICE);
  repo.write("b.txt", "bee\n").commit("add b", BOB);
  repo.write("a.txt", "one\n2\nthree\nfour\n").commit("fix a's second line", BOB);
  repo.write("dir/c.txt", "see\n").commit("add c", ALICE);
  // A .mailmap: what it stamps must be the same on every replica (each has its own clone of it).
  repo.write(".mailmap", "Bob B. <bob@example.com>\n").commit("a mailmap", BOB);
  spawnSync("ln", ["-s", "/etc", join(repo.dir, "escape")]);
  repo.commit("a link out", ALICE);
  return repo;
}

export interface Served {
  url: string;
  origin: string;
  /** Everything the server wrote on stderr so far. */
  stderr: () => string;
  /**
   * The server's JSON log lines once one of them is `wanted` (a request's line is written as its
   * response ends and read here through a pipe, so it may come just after the answer): at most 5 s.
   */
  logLines: (wanted: (line: any) => boolean) => Promise<any[]>;
  stop: () => Promise<void>;
}

/** `lore serve` on 127.0.0.1 and a port the system picks, with `args` (its LORE_HOME of its own). */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const home = tempDir("lore-serve-home-");
  const serve = loreCommand(["serve", "--listen", "127.0.0.1:0", ...args]);
  const child: ChildProcess = spawn(serve.command, serve.args, {
    env: { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1", NO_COLOR: "1", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += d.toString()));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /"url":"([^"]+)"/.exec(err);
      if (m) {
        clearInterval(t);
        resolve(m[1]!);
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(t);
      reject(new Error(`lore serve exited ${code}: ${err}`));
    });
  });
  return {
    url,
    origin: new URL(url).origin,
    stderr: () => err,
    logLines: async (wanted) => {
      for (let waited = 0; ; waited += 25) {
        const lines = err.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
        if (lines.some(wanted) || waited >= 5000) return lines;
        await Bun.sleep(25);
      }
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The SDK's Streamable HTTP client, connected with a bearer token. */
export async function sdkClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } });
  const client = new Client({ name: "lore-serve-test", version: "0" });
  await client.connect(transport);
  return client;
}

/** SDK 2's client, pinned to MCP 2026-07-28 (no initialize, no session), with a bearer token. */
export async function sdk2Client(url: string, token?: string): Promise<Client2> {
  const client = new Client2({ name: "lore-serve-test", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new Http2(new URL(url), { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } }));
  return client;
}

/** What the tests ask of either SDK line's client. */
export interface Asker {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

export async function callTool(client: Asker, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** A POST to /mcp as a client sends one, with headers to add or change. */
export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", body, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } });
}

export const LIST_TOOLS = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** One HTTP/1.1 exchange over a raw socket (a Host fetch would not send, a body sent too slowly); resolves to what came back when the server closed or `ms` passed. */
export function rawRequest(origin: string, text: string, ms = 8000): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let got = "";
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on("data", (d) => (got += d.toString()));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on("error", () => {});
  });
}

/** `lore serve token add NAME --tokens FILE`: the token printed. */
export function addToken(file: string, name: string): string {
  const add = loreCommand(["serve", "token", "add", name, "--tokens", file]);
  const r = spawnSync(add.command, add.args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}
