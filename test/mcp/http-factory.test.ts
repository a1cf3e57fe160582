/**
 * createServer is the factory of any transport: behind the SDK's createMcpHandler on a Hono app
 * (what lore serve builds on), a stateless Streamable HTTP endpoint answers SDK 2's client at
 * 2026-07-28 and SDK 1's at 2025-11-25 alike, a server per request.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createMcpHonoApp } from "@modelcontextprotocol/hono";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { callQuestion } from "../../src/client/call.ts";
import { createServer } from "../../src/mcp/server.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { buildRepo, git, tempDir, type Fixture } from "./fixture.ts";

let repo: Fixture;
let server: ReturnType<typeof Bun.serve>;
let url: URL;
const built: string[] = [];
const savedHome = process.env.LORE_HOME;

beforeAll(() => {
  repo = buildRepo();
  process.env.LORE_HOME = tempDir("lore-http-home-");
  const deps = { scope: new RepoScope(repo.dir), call: callQuestion, noDaemon: true, maxBytes: 16384, log: () => {} };
  // The usage lore serve needs: one handler, a server from the factory per request, the Hono app's Host/Origin checks and body limit.
  const mcp = createMcpHandler((ctx) => (built.push(ctx.era), createServer(deps, ctx)), { maxRequestBodySize: 1 << 20 });
  const app = createMcpHonoApp({ host: "127.0.0.1", maxRequestBodySize: 1 << 20 });
  app.all("/mcp", (c) => mcp.fetch(c.req.raw, { parsedBody: c.get("parsedBody" as never) }));
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
  url = new URL(`http://127.0.0.1:${server.port}/mcp`);
});

afterAll(() => {
  server.stop(true);
  repo.cleanup();
  process.env.LORE_HOME = savedHome;
});

test("a stateless Streamable HTTP endpoint built on createServer answers clients of 2026-07-28 and 2025-11-25 alike", async () => {
  const modern = new Client2({ name: "http-test", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await modern.connect(new Http2(url));
  const legacy = new Client1({ name: "http-test", version: "1" });
  await legacy.connect(new Http1(url));
  try {
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(modern.getInstructions()).toBe(legacy.getInstructions()!);
    const tools = [(await modern.listTools()).tools, (await legacy.listTools()).tools];
    expect(tools[0]).toEqual(tools[1]!);
    const log = await Promise.all([modern, legacy].map(async (c) => {
      const { _meta, ...answer } = (await c.callTool({ name: "lore_log", arguments: { limit: 3 } })) as any;
      return answer;
    }));
    expect(log[0]).toEqual(log[1]);
    expect(log[0].structuredContent.commits.map((c: any) => (Array.isArray(c) ? c[0] : c.sha))).toEqual(git(repo.dir, ["log", "-n", "3", "--format=%h", "--abbrev=12"]).trim().split("\n"));
    const refused = await modern.callTool({ name: "lore_blam", arguments: {} }).then(() => undefined, (e: any) => e.code);
    expect(refused).toBe(-32602);
  } finally {
    await modern.close();
    await legacy.close();
  }
  // Each era had servers of its own from the one factory.
  expect(new Set(built)).toEqual(new Set(["modern", "legacy"]));
}, 60_000);
