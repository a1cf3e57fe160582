/** lore mcp on the wire: raw JSON-RPC lines, garbage among them, and a client that closes stdin at once. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { buildRepo, tempDir, type Fixture } from "./fixture.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

let repo: Fixture;
let loreHome: string;

function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "LORE_MCP_ALLOWED_REPOS" && k !== "LORE_MCP_MAX_BYTES") env[k] = v;
  return { ...env, LORE_HOME: loreHome, LORE_NO_DAEMON: "1" };
}

beforeAll(() => {
  loreHome = tempDir("lore-mcp-wire-");
  repo = buildRepo();
});

afterAll(() => {
  repo.cleanup();
  rmSync(loreHome, { recursive: true, force: true });
});

describe("lore mcp on the wire", () => {
  test("survives garbage, answers unknown methods with -32601, and writes only JSON-RPC to stdout", async () => {
    const mcp = loreCommand(["mcp"]);
    const child = spawn(mcp.command, mcp.args, { cwd: repo.dir, env: serverEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const send = (line: string) => child.stdin.write(line + "\n");
    send("this is not json");
    send('{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}');
    send('{"half": ');
    send('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}');
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    send('{"jsonrpc":"2.0","id":3,"method":"no/such/method"}');
    send('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"lore_status","arguments":{}}}');
    send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lore_nothing","arguments":{}}}');
    const deadline = Date.now() + 20_000;
    while (out.split("\n").filter(Boolean).length < 5 && Date.now() < deadline) await Bun.sleep(25);
    child.stdin.end();
    const exit = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const messages = out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    for (const m of messages) expect(m.jsonrpc).toBe("2.0");
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(1).error.code).toBe(-32601);
    expect(byId.get(2).result.serverInfo.name).toBe("lore");
    expect(byId.get(3).error.code).toBe(-32601);
    expect(byId.get(4).result.structuredContent.repo).toBe(repo.dir);
    expect(byId.get(5).error.code).toBe(-32602);
    expect(exit).toBe(0);
  });
});

test("a client that sends its calls and closes stdin at once still gets every answer", () => {
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "lore_status", arguments: {} } },
    { jsonrpc: "2.0", id: 3, method: "tools/list" },
  ].map((m) => JSON.stringify(m)).join("\n") + "\n";
  const mcp = loreCommand(["mcp", "--no-daemon"]);
  const r = spawnSync(mcp.command, mcp.args, { cwd: repo.dir, input: lines, encoding: "utf8", timeout: 30_000, env: serverEnv() });
  const ids = r.stdout.trim().split("\n").map((l) => JSON.parse(l).id).sort();
  expect(ids).toEqual([1, 2, 3]);
});
