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

/** What Codex's app server says of its MCP servers (mcpServerStatus/list), after starting each. */
async function serverStatus(): Promise<ServerStatus[]> {
  const proc = Bun.spawn([join(env.home.bin, "codex"), "app-server"], { cwd: env.project, env: env.home.env(), stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const send = (msg: unknown) => proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...(msg as object) }) + "\n");
  send({ id: 1, method: "initialize", params: { clientInfo: { name: "lore-test", version: "1" } } });
  send({ method: "initialized" });
  send({ id: 2, method: "mcpServerStatus/list", params: { detail: "toolsAndAuthOnly" } });
  await proc.stdin.flush();
  const timer = setTimeout(() => proc.kill(), 60_000);
  let buffer = "";
  try {
    for await (const chunk of proc.stdout as unknown as AsyncIterable<Uint8Array>) {
      buffer += new TextDecoder().decode(chunk);
      for (const line of buffer.split("\n").slice(0, -1)) {
        const msg = JSON.parse(line) as { id?: number; result?: { data: ServerStatus[] } };
        if (msg.id === 2) return msg.result!.data;
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
    throw new Error("codex app-server closed without answering mcpServerStatus/list");
  } finally {
    clearTimeout(timer);
    proc.kill();
  }
}

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
