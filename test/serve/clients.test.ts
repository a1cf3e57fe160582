/**
 * The real agent clients (pinned in test/clients) pointed at one `lore serve` over HTTP with a bearer
 * header, each registered with its own `mcp add` command: each lists lore as connected, and the
 * server's log shows the client's own token name asking for the tools.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir, type TestRepo } from "../helpers/git-repo.ts";
import { AgentHome, type ClientBin } from "../setup/agent-env.ts";
import { addToken, originRepo, startServe, type Served } from "./served.ts";

// Each listing starts a client (a second or several) that connects to the server.
setDefaultTimeout(90_000);

let origin: TestRepo;
let data: string;
let served: Served;
let h: AgentHome;
const tokens: Partial<Record<ClientBin, string>> = {};

beforeAll(async () => {
  origin = originRepo();
  data = tempDir("lore-serve-clients-");
  const file = join(data, "tokens");
  // A token per client: the log names which client asked.
  for (const c of ["claude", "codex", "gemini", "opencode"] as const) tokens[c] = addToken(file, c);
  served = await startServe(["--repo", origin.dir, "--data", data, "--tokens", file]);
  h = new AgentHome(["claude", "codex", "gemini", "opencode"]);
});

afterAll(async () => {
  await served?.stop();
  h?.cleanup();
  origin?.cleanup();
  if (data) rmSync(data, { recursive: true, force: true });
});

/** The access log's lines so far. */
const logLines = () => served.stderr().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));

/** The methods the client's token was answered, once one came (the log arrives through a pipe the event loop reads). */
async function answeredFor(name: string, wanted = "tools/list", ms = 10_000): Promise<string[]> {
  const rpcs = () => logLines().filter((l) => l.token === name && l.outcome === "ok").map((l) => l.rpc as string);
  for (let waited = 0; waited < ms && !rpcs().includes(wanted); waited += 100) await Bun.sleep(100);
  return rpcs();
}

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("the real agent clients, registered with lore serve's URL and a bearer header", () => {
  test("Claude Code: claude mcp add --transport http with --header, and claude mcp list says connected", async () => {
    const add = h.run("claude", ["mcp", "add", "--scope", "user", "--transport", "http", "lore", served.url, "--header", `Authorization: Bearer ${tokens.claude}`]);
    expect(add.code).toBe(0);
    const r = h.run("claude", ["mcp", "list"]);
    expect(plain(r.stdout)).toContain(`lore: ${served.url} (HTTP) - ✔ Connected`);
    // Claude Code speaks 2026-07-28: no initialize, a server/discover, then the tools.
    expect(await answeredFor("claude")).toEqual(expect.arrayContaining(["server/discover", "tools/list"]));
  });

  test("Claude Code with a wrong token does not list lore as connected, and the server says 401", async () => {
    const add = h.run("claude", ["mcp", "add", "--scope", "user", "--transport", "http", "lore-wrong", served.url, "--header", `Authorization: Bearer ${tokens.claude}x`]);
    expect(add.code).toBe(0);
    const line = plain(h.run("claude", ["mcp", "list"]).stdout).split("\n").find((l) => l.startsWith("lore-wrong: "));
    expect(line).toBeDefined();
    expect(line).not.toContain("Connected");
    h.run("claude", ["mcp", "remove", "--scope", "user", "lore-wrong"]);
    expect((await served.logLines((l) => l.outcome === "UNAUTHORIZED")).some((l) => l.outcome === "UNAUTHORIZED" && l.token === undefined)).toBe(true);
  });

  test("Gemini CLI: gemini mcp add --transport http with --header, and gemini mcp list says connected", async () => {
    const add = h.run("gemini", ["mcp", "add", "--scope", "user", "--transport", "http", "lore", served.url, "--header", `Authorization: Bearer ${tokens.gemini}`]);
    expect(add.code).toBe(0);
    const r = h.run("gemini", ["mcp", "list"]);
    expect(plain(r.stdout + r.stderr)).toContain(`✓ lore: ${served.url} (http) - Connected`);
    // Gemini CLI's listing initializes (2025) and pings.
    expect(await answeredFor("gemini", "ping")).toEqual(expect.arrayContaining(["initialize", "ping"]));
  });

  test("opencode: opencode mcp add --url with --header, and opencode mcp list says connected", async () => {
    const add = h.run("opencode", ["mcp", "add", "lore", "--url", served.url, "--header", `Authorization=Bearer ${tokens.opencode}`]);
    expect(add.code).toBe(0);
    const r = h.run("opencode", ["mcp", "list"]);
    const out = plain(r.stdout + r.stderr);
    expect(out).toMatch(/✓ lore\s+connected/);
    expect(out).toContain(served.url);
    expect(await answeredFor("opencode")).toEqual(expect.arrayContaining(["initialize", "tools/list"]));
  });

  test("Codex: codex mcp add --url with the token's variable; codex mcp list shows it with a bearer token, and a Codex session connects with it", async () => {
    const add = h.run("codex", ["mcp", "add", "lore", "--url", served.url, "--bearer-token-env-var", "LORE_SERVE_TOKEN"]);
    expect(add.code).toBe(0);
    expect(readFileSync(join(h.home, ".codex", "config.toml"), "utf8")).toContain(`[mcp_servers.lore]\nurl = "${served.url}"\nbearer_token_env_var = "LORE_SERVE_TOKEN"\n`);
    const list = h.run("codex", ["mcp", "list", "--json"]);
    const lore = JSON.parse(list.stdout).find((s: { name: string }) => s.name === "lore");
    expect(lore).toMatchObject({ enabled: true, transport: { type: "streamable_http", url: served.url }, auth_status: "bearer_token" });
    // codex mcp list reads the configuration without connecting; a session connects to every server
    // before its first model request (here to a model nobody listens for), so the log shows codex asking.
    const provider = 'model_providers.dead={name="dead",base_url="http://127.0.0.1:9/v1",wire_api="responses",env_key="OPENAI_API_KEY"}';
    const codex = spawn(join(h.bin, "codex"), ["exec", "--skip-git-repo-check", "-c", 'model_provider="dead"', "-c", provider, "-c", 'model="none"', "say hi"], {
      cwd: h.dir,
      env: h.env({ LORE_SERVE_TOKEN: tokens.codex!, OPENAI_API_KEY: "sk-none" }),
      stdio: ["ignore", "ignore", "ignore"],
      // Its own process group: the npm launcher starts the native codex, which a kill of the launcher alone leaves running.
      detached: true,
    });
    try {
      expect(await answeredFor("codex", "tools/list", 60_000)).toEqual(expect.arrayContaining(["initialize", "tools/list"]));
    } finally {
      process.kill(-codex.pid!, "SIGKILL");
    }
  });

  test("the server never logged a token, and refused only the wrong one", () => {
    for (const t of Object.values(tokens)) expect(served.stderr()).not.toContain(t!);
    expect(logLines().filter((l) => l.outcome === "UNAUTHORIZED" && l.token !== undefined)).toEqual([]);
  });
});
