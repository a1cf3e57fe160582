/** `lore mcp` under Deno: SDK 2's stdio entry runs there too, and a 2026-07-28 client and a 2025-11-25 one get Bun's answers. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildRepo, tempDir, type Fixture } from "../mcp/fixture.ts";

const ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(ROOT, "src", "main.ts");
const DENO = join(ROOT, "node_modules", "deno", "deno");
let repo: Fixture;

const RUNTIMES = { bun: [process.execPath, MAIN, "mcp"], deno: [DENO, "run", "-A", "--quiet", MAIN, "mcp"] };

/** The tool list and two answers (blame, and an error) of one runtime at one revision; what the SDK adds in _meta is not lore's. */
async function answers(runtime: keyof typeof RUNTIMES, revision: "2025-11-25" | "2026-07-28") {
  const [command, ...args] = RUNTIMES[runtime];
  const env = { ...(process.env as Record<string, string>), LORE_HOME: tempDir("lore-home-"), LORE_NO_DAEMON: "1" };
  const modern = revision === "2026-07-28";
  const client = modern ? new Client2({ name: "deno-test", version: "2" }, { versionNegotiation: { mode: { pin: revision } } }) : new Client1({ name: "deno-test", version: "1" });
  await client.connect((modern ? new Stdio2({ command: command!, args, cwd: repo.dir, env }) : new Stdio1({ command: command!, args, cwd: repo.dir, env })) as never);
  try {
    const call = async (name: string, a: Record<string, unknown>) => {
      const { _meta, ...rest } = (await client.callTool({ name, arguments: a })) as Record<string, unknown>;
      return rest;
    };
    return { tools: (await client.listTools()).tools, blame: await call("lore_blame", { path: "src/app.ts" }), missing: await call("lore_blame", { path: "nope.ts" }) };
  } finally {
    await client.close();
  }
}

describe.skipIf(!existsSync(DENO))("lore mcp under Deno", () => {
  beforeAll(() => {
    repo = buildRepo();
  });
  afterAll(() => repo.cleanup());

  test("answers clients of 2026-07-28 and 2025-11-25 exactly as under Bun", async () => {
    const bun = await answers("bun", "2026-07-28");
    expect(bun.tools.length).toBeGreaterThan(10);
    expect(await answers("deno", "2026-07-28")).toEqual(bun);
    expect(await answers("deno", "2025-11-25")).toEqual(bun);
  }, 120_000);
});
