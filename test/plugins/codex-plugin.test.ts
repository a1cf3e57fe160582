/**
 * Codex installs lore from the repository's marketplace with its own commands, in a private HOME, and
 * its app server lists lore's server with lore's tools; lore setup and doctor see the plugin; `codex
 * plugin remove` takes it out. (`codex mcp list` shows only config.toml's servers, never a plugin's.)
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MARKETPLACE } from "../../build/plugin-files.ts";
import { BUILD_TIMEOUT_MS } from "../build/built-release.ts";
import { pluginEnv, type PluginEnv } from "./plugin-env.ts";

setDefaultTimeout(120_000);

let env: PluginEnv;
const ID = `lore@${MARKETPLACE}`;
const codexHome = () => join(env.home.home, ".codex");

beforeAll(async () => {
  env = await pluginEnv(["codex"]);
}, BUILD_TIMEOUT_MS);

afterAll(() => env?.cleanup());

interface ServerStatus {
  name: string;
  pluginId: string | null;
  tools: Record<string, unknown>;
  toolsError?: string;
}

type Call = (method: string, params: unknown) => Promise<any>;

/** Talks to Codex's app server (JSON-RPC on stdio), as Codex's own clients do: initialize, then `talk`. */
async function appServer<T>(talk: (call: Call) => Promise<T>): Promise<T> {
  const proc = Bun.spawn([join(env.home.bin, "codex"), "app-server"], { cwd: env.project, env: env.home.env(), stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const pending = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();
  let next = 0;
  const send = (msg: object) => {
    proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
    void proc.stdin.flush();
  };
  const call: Call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, (msg) => (msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result)));
      send({ id, method, params });
    });
  void (async () => {
    let buffer = "";
    for await (const chunk of proc.stdout as unknown as AsyncIterable<Uint8Array>) {
      buffer += new TextDecoder().decode(chunk);
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (msg.id !== undefined) pending.get(msg.id)?.(msg);
      }
    }
  })();
  const timer = setTimeout(() => proc.kill(), 60_000);
  try {
    await call("initialize", { clientInfo: { name: "lore-test", version: "1" } });
    send({ method: "initialized" });
    return await talk(call);
  } finally {
    clearTimeout(timer);
    proc.kill();
  }
}

/** What Codex's app server says of its MCP servers (mcpServerStatus/list), after starting each. */
const serverStatus = () => appServer(async (call) => (await call("mcpServerStatus/list", { detail: "toolsAndAuthOnly" })).data as ServerStatus[]);

test("codex plugin marketplace add and codex plugin add install lore from the repository folder", async () => {
  const add = await env.run("codex", ["plugin", "marketplace", "add", env.repo]);
  expect(add.stdout).toContain(`Added marketplace \`${MARKETPLACE}\``);
  const plugin = await env.run("codex", ["plugin", "add", ID]);
  expect(plugin.stdout).toContain("Added plugin `lore`");
  const list = await env.run("codex", ["plugin", "list"]);
  expect(list.stdout).toMatch(new RegExp(`^${ID}\\s+installed, enabled\\s+0\\.\\d+\\.\\d+`, "m"));
});

test("Codex starts the plugin's server and lists it with lore's tools", async () => {
  const lore = (await serverStatus()).find((s) => s.name === "lore");
  expect(lore?.toolsError ?? null).toBeNull();
  expect(lore?.pluginId).toBe(ID);
  expect(Object.keys(lore?.tools ?? {})).toContain("lore_blame");
});

test("a tool call through the plugin is answered about the folder Codex works in, not the plugin's", async () => {
  const result = await appServer(async (call) => {
    const { thread } = await call("thread/start", { cwd: env.project });
    return call("mcpServer/tool/call", { threadId: thread.id, server: "lore", tool: "lore_status", arguments: {} });
  });
  expect(result.structuredContent?.repo).toBe(env.project);
  // Codex passes the server none of the test's variables: lore's daemon runs under the private HOME.
  Bun.spawnSync([join(env.home.bin, "lore"), "daemon", "stop"], { env: { ...env.home.env(), LORE_HOME: join(env.home.home, ".lore") } });
});

test("lore setup leaves Codex's config alone where the plugin is, and lore doctor reports the plugin", () => {
  const before = readFileSync(join(codexHome(), "config.toml"), "utf8");
  const setup = env.lore(["setup", "--client", "codex"]);
  expect(setup.stdout).toContain(`lore is installed as the plugin ${ID}`);
  expect(readFileSync(join(codexHome(), "config.toml"), "utf8")).toBe(before);
  const checks = JSON.parse(env.lore(["doctor", "--json"]).stdout).checks as { name: string; status: string }[];
  expect(checks.find((c) => c.name === "codex plugin")?.status).toBe("ok");
});

test("codex plugin remove and codex plugin marketplace remove take lore out of Codex", async () => {
  expect((await env.run("codex", ["plugin", "remove", ID])).code).toBe(0);
  expect((await env.run("codex", ["plugin", "marketplace", "remove", MARKETPLACE])).code).toBe(0);
  expect(readFileSync(join(codexHome(), "config.toml"), "utf8")).not.toContain("lore");
  expect(existsSync(join(codexHome(), "plugins", "cache", MARKETPLACE, "lore"))).toBe(false);
  // Codex 0.171.0 leaves the plugin's data folder (docs/agents.md says so): here it holds nothing, lore being on the PATH.
  const data = join(codexHome(), "plugins", "data");
  const files = existsSync(data) ? readdirSync(data, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()) : [];
  expect(files).toEqual([]);
  expect((await serverStatus()).map((s) => s.name)).not.toContain("lore");
});
