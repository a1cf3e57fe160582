/**
 * One `lore mcp`, three protocol revisions: SDK 1's client at 2025-11-25 and at 2025-06-18, and
 * SDK 2's client at 2026-07-28 (no initialize, the version and capabilities on every request) ask
 * the same questions over stdio and get the same answers, which are git's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { lines, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome } from "../daemon/daemon-helpers.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";
import { toolListings } from "../../src/mcp/tools.ts";

const NEEDLE = "needle(";
const REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];

let repo: TestRepo;
let other: TestRepo;
/** A LORE_HOME (and daemon) per client: one daemon would keep the first client's search and answer the next at once, with no progress to hear. */
const homes: string[] = [];
let slowBin: string;

/** What every client does alike, whichever SDK line it comes from. */
interface Asker {
  revision: Revision;
  /** Every message the client wrote to the server's stdin. */
  sent: any[];
  /** Every message the server wrote back. */
  heard: any[];
  listTools(): Promise<any[]>;
  call(name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number; message?: string }) => void): Promise<any>;
  close(): Promise<void>;
}

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = daemonHome();
  homes.push(home);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("LORE_")) env[k] = v;
  // A git that naps before each slice of a code search walk: the search runs past a second, so progress is heard.
  return { ...env, PATH: `${slowBin}:${env.PATH}`, LORE_HOME: home, LORE_TEST_PICKAXE_SLICE: "10", LORE_MCP_DEADLINE: "2s", ...extra };
}

/** Records both directions of a client's transport (set before the client's connect starts it). */
function record(transport: { send: (m: any) => Promise<void>; start: () => Promise<void>; onmessage?: (m: any) => void }, sent: any[], heard: any[], rewrite = (m: any) => m): void {
  const send = transport.send.bind(transport);
  transport.send = (m: any) => {
    const out = rewrite(m);
    sent.push(out);
    return send(out);
  };
  const start = transport.start.bind(transport);
  transport.start = () => {
    const receive = transport.onmessage;
    transport.onmessage = (m: any) => {
      heard.push(m);
      receive?.(m);
    };
    return start();
  };
}

/** SDK 1.32.2's client; at 2025-06-18 its initialize asks for that revision (the SDK itself always asks for its newest). */
async function sdk1(revision: "2025-06-18" | "2025-11-25", cwd = repo.dir): Promise<Asker> {
  const sent: any[] = [];
  const heard: any[] = [];
  const transport = new Stdio1({ ...loreCommand(["mcp"]), cwd, env: serverEnv(), stderr: "pipe" });
  record(transport as any, sent, heard, (m) => (m.method === "initialize" ? { ...m, params: { ...m.params, protocolVersion: revision } } : m));
  const client = new Client1({ name: "lore-test", version: "1" });
  await client.connect(transport);
  return {
    revision,
    sent,
    heard,
    listTools: async () => (await client.listTools()).tools,
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, undefined, { timeout: 60_000, ...(onprogress ? { onprogress } : {}) }),
    close: () => client.close(),
  };
}

/** SDK 2's client, pinned to 2026-07-28; `roots`: it says it has them, and counts how often it is asked. */
async function sdk2(cwd = repo.dir, roots?: { asked: number; dirs: string[] }): Promise<Asker> {
  const sent: any[] = [];
  const heard: any[] = [];
  const transport = new Stdio2({ ...loreCommand(["mcp"]), cwd, env: serverEnv(), stderr: "pipe" });
  record(transport as any, sent, heard);
  const client = new Client2({ name: "lore-test", version: "2" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, ...(roots ? { capabilities: { roots: { listChanged: true } } } : {}) });
  if (roots)
    client.setRequestHandler("roots/list", () => {
      roots.asked++;
      return { roots: roots.dirs.map((d) => ({ uri: `file://${d}` })) };
    });
  await client.connect(transport);
  return {
    revision: "2026-07-28",
    sent,
    heard,
    listTools: async () => (await client.listTools()).tools,
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, { timeout: 60_000, ...(onprogress ? { onprogress } : {}) }),
    close: () => client.close(),
  };
}

/** An answer as the tool gave it: what the SDK adds on the 2026 wire (the server's name in _meta) is not lore's. */
const answer = ({ _meta, ...rest }: any) => rest;
/** A protocol error as the server said it (SDK 1 prefixes its own words). */
const refusal = async (p: Promise<unknown>) => p.then(() => undefined, (e: any) => ({ code: e.code, message: String(e.message).replace(/^MCP error -?\d+: /, "") }));
const shas = (page: any) => (expandTuples(page.structuredContent) as any).results.map((r: any) => r.sha);

/** The same questions of each client: the tool list, blame, a log cut by its limit and its continue, errors, a code search with progress. */
async function ask(client: Asker) {
  const tools = await client.listTools();
  const blame = answer(await client.call("lore_blame", { path: "f0.c" }));
  const log = answer(await client.call("lore_log", { limit: 5 }));
  const rest = answer(await client.call("lore_log", { limit: 5, continue: log.structuredContent.continue }));
  const missing = answer(await client.call("lore_blame", { path: "no/such/file.c" }));
  const badArg = answer(await client.call("lore_log", { limt: 5 }));
  const unknown = await refusal(client.call("lore_blam", {}));
  // The walk takes slices of 10 and 20 commits, 1.2 s each: past the 2 s deadline, the rest comes with continue.
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const pages = [answer(await client.call("lore_search", { query: NEEDLE, code: true, limit: 30 }, (p) => progress.push(p)))];
  while (pages.at(-1)!.structuredContent.continue) pages.push(answer(await client.call("lore_search", { query: NEEDLE, code: true, limit: 30, continue: pages.at(-1)!.structuredContent.continue })));
  return { tools, blame, log, rest, missing, badArg, unknown, progress, found: pages.flatMap(shas), firstPage: pages[0] };
}

beforeAll(() => {
  repo = new TestRepo();
  // 30 commits; every third adds a line with the needle: 10 commits git log -S lists.
  repo.commits((b) => {
    for (let i = 0; i < 30; i++) b.write(`f${i % 5}.c`, lines(`int v${i};`, ...(i % 3 === 0 ? [`call ${NEEDLE}${i});`] : []))).commit(`change ${i}`);
  });
  other = new TestRepo();
  other.write("a.c", lines("int a;")).commit("one");
  slowBin = tempDir("slow-git-");
  writeFileSync(join(slowBin, "git"), `#!/bin/sh\ncase " $* " in *" --no-walk=unsorted "*) sleep 1.2;; esac\nexec ${Bun.which("git")} "$@"\n`);
  chmodSync(join(slowBin, "git"), 0o755);
});

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
  repo.cleanup();
  other.cleanup();
}, 60_000);

test("clients of 2025-06-18, 2025-11-25 and 2026-07-28 get the same tools and the same answers, which are git's", async () => {
  const answers: Record<string, Awaited<ReturnType<typeof ask>>> = {};
  // Side by side: most of the time is the slow git's naps.
  const clients = await Promise.all([sdk1("2025-06-18"), sdk1("2025-11-25"), sdk2()]);
  try {
    await Promise.all(clients.map(async (c) => (answers[c.revision] = await ask(c))));
  } finally {
    for (const c of clients) await c.close();
  }
  const [old, mid, now] = clients;
  // Each spoke the revision it names: the two 2025 clients in their initialize, the 2026 one on every request and never an initialize.
  expect(old!.heard.find((m) => m.id === old!.sent[0].id).result.protocolVersion).toBe("2025-06-18");
  expect(mid!.heard.find((m) => m.id === mid!.sent[0].id).result.protocolVersion).toBe("2025-11-25");
  expect(now!.sent.some((m) => m.method === "initialize")).toBe(false);
  for (const m of now!.sent.filter((m) => m.method)) expect(m.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");

  const truth = repo.git("log", `-S${NEEDLE}`, "--format=%h", "--abbrev=12").trim().split("\n");
  for (const r of REVISIONS) {
    const a = answers[r]!;
    // The tools are lore's listings as built, byte for byte: the 8 KB budget holds on every revision.
    expect(a.tools).toEqual(toolListings() as any[]);
    expect(a.blame.structuredContent.hunks.length).toBeGreaterThan(0);
    expect(a.blame.content[0].text).toMatch(/^hunks$/m);
    // The log cut by its limit, and its continue: git log's 10 newest commits, in order.
    expect([...a.log.structuredContent.commits, ...a.rest.structuredContent.commits].map((c: any) => (Array.isArray(c) ? c[0] : c.sha))).toEqual(repo.git("log", "-n", "10", "--format=%h", "--abbrev=12").trim().split("\n"));
    expect(a.missing).toEqual({ content: [{ type: "text", text: expect.stringMatching(/^PATH_NOT_FOUND: no\/such\/file\.c /) }], isError: true });
    expect(a.badArg.content[0].text).toMatch(/^BAD_ARGUMENT: lore_log does not take "limt".*Did you mean "limit"\?/);
    expect(a.unknown).toEqual({ code: -32602, message: expect.stringMatching(/^lore has no tool "lore_blam"; .*Did you mean lore_blame\?$/) });
    // Progress each second the walk runs past one, always growing; the pages together are git log -S's commits.
    expect(a.progress.length).toBeGreaterThan(0);
    // "of 30" once the index knows how many commits the walk has (not yet, when the search comes first).
    expect(a.progress[0]!.message).toMatch(/^search: searched \d+ (of 30 )?commits/);
    expect(a.progress.every((p, i) => i === 0 || p.progress > a.progress[i - 1]!.progress)).toBe(true);
    expect(a.found).toEqual(truth);
    expect(a.firstPage.structuredContent.partial).toBe(true);
  }
  // Everything but the timing of the deadline's cut is the same across the revisions; the continue tokens are
  // each home's own (sealed with its secret), so they are said as "a token".
  const same = ({ progress, found, firstPage, ...rest }: Awaited<ReturnType<typeof ask>>) => JSON.parse(JSON.stringify(rest).replace(/(continue(?:\\?":\\?"|:? ))\d+/g, "$1a token"));
  expect(same(answers["2025-06-18"]!)).toEqual(same(answers["2026-07-28"]!));
  expect(same(answers["2025-11-25"]!)).toEqual(same(answers["2026-07-28"]!));
}, 120_000);

test("a 2026-07-28 client is never asked for roots (deprecated there): it reads the folder lore started in, and other repositories through LORE_MCP_ALLOWED_REPOS only", async () => {
  const roots = { asked: 0, dirs: [other.dir] };
  const client = await sdk2(repo.dir, roots);
  try {
    expect((await client.call("lore_status", {})).structuredContent.repo).toBe(repo.dir);
    expect((await client.call("lore_status", { repo: other.dir })).content[0].text).toMatch(/^REPO_NOT_ALLOWED: /);
    expect(roots.asked).toBe(0);
  } finally {
    await client.close();
  }
}, 60_000);

test("a 2026-07-28 client that sends its calls and closes stdin at once still gets every answer", () => {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const input = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "lore_status", arguments: {}, _meta: meta } },
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "lore_log", arguments: { limit: 2 }, _meta: meta } },
  ].map((m) => JSON.stringify(m) + "\n").join("");
  // No deadline: this is about a closed stdin, and a first index under load can take the 2 s the others get (an answer cut short has no commits yet).
  const mcp = loreCommand(["mcp", "--no-daemon"]);
  const r = spawnSync(mcp.command, mcp.args, { cwd: repo.dir, input, encoding: "utf8", timeout: 30_000, env: serverEnv({ LORE_HOME: tempDir("lore-home-"), LORE_MCP_DEADLINE: "none" }) });
  const byId = new Map(r.stdout.trim().split("\n").map((l) => JSON.parse(l)).map((m) => [m.id, m]));
  expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
  expect(byId.get(1).result.structuredContent.repo).toBe(repo.dir);
  expect(byId.get(2).result.tools.length).toBe(toolListings().length);
  expect(byId.get(3).result.structuredContent.commits.length).toBe(2);
  expect(byId.get(3).result.resultType).toBe("complete");
});
