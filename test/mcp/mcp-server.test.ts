import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { QUERIES } from "../../src/queries/index.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";
import { buildRepo, git, gitBlameShas, tempDir, type Fixture } from "./fixture.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

const TOOLS = ["lore_blame", "lore_history", "lore_intent", "lore_cochange", "lore_hotspots", "lore_contributors", "lore_owners", "lore_search", "lore_status", "lore_log", "lore_show", "lore_compare", "lore_review", "lore_git", "lore_changes", "lore_restore", "lore_branches", "lore_suspects"];

let repo: Fixture;
let other: Fixture;
let loreHome: string;
const clients: Client[] = [];

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "LORE_MCP_ALLOWED_REPOS" && k !== "LORE_MCP_MAX_BYTES") env[k] = v;
  return { ...env, LORE_HOME: loreHome, LORE_NO_DAEMON: "1", ...extra };
}

/** Starts `lore mcp` in `cwd` and connects the SDK's own client to it. */
async function connect(cwd: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ ...loreCommand(["mcp"]), cwd, env: serverEnv(env), stderr: "pipe" });
  const client = new Client({ name: "lore-test", version: "0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

let client: Client;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

beforeAll(async () => {
  loreHome = tempDir("lore-mcp-home-");
  repo = buildRepo();
  other = buildRepo();
  // Claude Code may start the server in a subfolder: it must find the root itself.
  client = await connect(join(repo.dir, "docs"));
  tools = (await client.listTools()).tools;
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  repo.cleanup();
  other.cleanup();
  rmSync(loreHome, { recursive: true, force: true });
});

describe("lore mcp", () => {
  test("lists one tool per question, each with a title, a short description, schemas and read-only annotations", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.description!.length).toBeGreaterThan(40);
      expect(Buffer.byteLength(t.description!)).toBeLessThan(2048);
      const def = QUERIES.find((q) => `lore_${q.name}` === t.name)!;
      // Only a question that writes to the work tree (restore) says so, and says it is destructive.
      expect(t.annotations).toMatchObject(def.writes ? { readOnlyHint: false, openWorldHint: false, destructiveHint: true } : { readOnlyHint: true, openWorldHint: false, idempotentHint: true });
      // A question whose text face says it all in fewer tokens (show) answers the model in text: no outputSchema.
      expect(t.outputSchema?.type).toBe(def.textForModel ? undefined : "object");
      const props = t.inputSchema.properties as Record<string, { description?: string }>;
      if (def.otherRepos !== false) expect(Object.keys(props)).toContain("repo");
      // A question with a revision of its own (show REV, compare HEAD), or about the work tree now, takes no until.
      if (def.args.until) expect(Object.keys(props)).toContain("until");
      // repo and until are described once, in the server's instructions.
      expect(client.getInstructions()).toMatch(/takes until \(answer as of a revision[^)]*\) and repo \(another repository/);
      for (const [field, schema] of Object.entries(props)) {
        if (field === "repo" || field === "until") continue;
        // A field is described unless its question chose to leave it to the name and the tool's description (agent: "").
        if (def.args[field]?.agent !== "") expect(`${t.name}.${field}: ${schema.description ?? ""}`).toMatch(/: \S/);
        expect(schema.description ?? "").not.toMatch(/CLI:/);
      }
    }
    const blame = tools.find((t) => t.name === "lore_blame")!;
    expect(Object.keys(blame.inputSchema.properties!).sort()).toEqual(["continue", "endLine", "ignoreRevs", "path", "repo", "startLine", "until"]);
    expect(blame.inputSchema.required).toEqual(["path"]);
  });

  test("every tool answers with structuredContent that matches its outputSchema and a text rendering", async () => {
    const args: Record<string, Record<string, unknown>> = {
      lore_blame: { path: "src/app.ts" },
      lore_history: { path: "src/helpers.ts" },
      lore_intent: { path: "src/app.ts", startLine: 3, endLine: 7 },
      lore_cochange: { paths: ["src/app.ts"] },
      lore_hotspots: {},
      lore_contributors: { path: "src" },
      lore_owners: { path: "src" },
      lore_search: { query: "helpers" },
      lore_status: {},
      lore_log: { paths: ["src"], limit: 3 },
      lore_show: { rev: "HEAD", paths: ["src"] },
      lore_compare: { base: "HEAD~2" },
      lore_review: { base: "HEAD~2" },
      lore_git: { args: ["log", "-n", "2", "--stat"] },
      lore_changes: { patch: true },
    };
    const ajv = new AjvJsonSchemaValidator();
    // The other shapes of two tools: line history, and code search.
    const more: [string, Record<string, unknown>][] = [
      ["lore_history", { path: "src/app.ts", lines: "2,4" }],
      ["lore_search", { query: "values", code: true }],
    ];
    for (const [name, input] of more) {
      const t = tools.find((x) => x.name === name)!;
      const r = await call(client, name, input);
      expect({ name, isError: r.isError ?? false }).toEqual({ name, isError: false });
      expect(ajv.getValidator(t.outputSchema as never)(r.structuredContent).errorMessage).toBeUndefined();
      // Line history's diff; code search's results (its mode is left out when it is git log -S).
      const shaped = expandTuples(r.structuredContent) as any;
      expect(shaped.commits?.[0]?.diff ?? shaped.results).toBeDefined();
    }
    for (const t of tools) {
      // restore puts back a file from the snapshot lore_changes (listed before it) took: the same bytes.
      if (t.name === "lore_restore") args.lore_restore = { paths: ["docs/guide.md"], from: (await call(client, "lore_changes", {})).structuredContent.now };
      const r = await call(client, t.name, args[t.name]!);
      expect({ tool: t.name, isError: r.isError ?? false, text: r.isError ? r.content[0]!.text : "" }).toEqual({ tool: t.name, isError: false, text: "" });
      if (t.name === "lore_show") {
        // The text face is the whole answer: git show's header, the message, the files, the patch of src.
        expect(r.structuredContent).toBeUndefined();
        // (its id in 12 hex, as the JSON copies have ids, with who and which day: git log -1 --format='%an %as')
        const [who, day] = git(repo.dir, ["log", "-1", "--format=%an%n%as"]).trim().split("\n");
        expect(r.content[0]!.text).toStartWith(`commit ${git(repo.dir, ["rev-parse", "HEAD"]).trim().slice(0, 12)} by ${who} on ${day}\n\n`);
        expect(r.content[0]!.text).not.toContain("\nAuthor: ");
        // Its files as git diff --name-status names them, a line each: status, path, counts, one space apart.
        const files = git(repo.dir, ["show", "--format=", "--name-status", "HEAD"]).trim().split("\n").map((l) => l.split("\t"));
        expect(files[0]![1]).toBeDefined();
        const whole = (await call(client, "lore_show", { rev: "HEAD" })).content[0]!.text;
        for (const [status, path] of files) expect(whole.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^${status} ${path!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\+\\d+ -\\d+$`)));
        continue;
      }
      expect(ajv.getValidator(t.outputSchema as never)(r.structuredContent).errorMessage).toBeUndefined();
      const def = QUERIES.find((q) => `lore_${q.name}` === t.name)!;
      expect(outputSchema(def).safeParse(r.structuredContent).success).toBe(true);
      // The model's copy names the repository only when the call did, and abbreviates the envelope's ids (status keeps both whole).
      expect(r.structuredContent.repo).toBe(t.name === "lore_status" ? repo.dir : undefined);
      for (const k of ["rev", "head", "base", "mergeBase"]) if (t.name !== "lore_status" && r.structuredContent[k] !== undefined) expect(r.structuredContent[k]).toMatch(/^[0-9a-f]{12}$/);
      expect(r.content[0]!.type).toBe("text");
      expect(r.content[0]!.text.length).toBeGreaterThan(0);
    }
  });

  test("blame matches git blame --porcelain line by line, page after page, and lists each commit once", async () => {
    for (const path of ["src/app.ts", "src/helpers.ts", "data/big.txt"]) {
      const truth = gitBlameShas(repo.dir, path);
      const mine: string[] = [];
      let pages = 0;
      for (let token: string | undefined; ; pages++) {
        const r = await call(client, "lore_blame", { path, ...(token ? { continue: token } : {}) });
        const hunks = r.structuredContent.hunks as [number, number, string][];
        for (const [start, end, sha] of hunks) for (let l = start; l <= end; l++) mine[l - 1] = sha;
        expect(Object.keys(r.structuredContent.commits).sort()).toEqual([...new Set(hunks.map((h) => h[2]))].sort());
        token = r.structuredContent.continue;
        if (!token) break;
      }
      expect(mine).toEqual(truth);
      // The big file's 1500 one-line hunks do not fit the default 16 KB: it comes in pages.
      expect(pages > 0).toBe(path === "data/big.txt");
    }
  });

  test("history follows the rename and intent returns the full message", async () => {
    const h = await call(client, "lore_history", { path: "src/helpers.ts" });
    // path only where the file had another name; oldPath on the rename.
    expect((expandTuples(h.structuredContent) as any).commits.map((c: { path?: string; oldPath?: string }) => [c.path, c.oldPath])).toEqual([[undefined, undefined], [undefined, "src/util.ts"], ["src/util.ts", undefined], ["src/util.ts", undefined]]);
    const first = await call(client, "lore_history", { path: "src/helpers.ts", limit: 1 });
    expect(first.structuredContent.continue).toMatch(/^\d+$/);
    expect(first.content[0]!.text).toContain(`continue ${first.structuredContent.continue}`);
    expect(first.content[0]!.text).not.toContain("-n ");
    const second = await call(client, "lore_history", { path: "src/helpers.ts", limit: 1, continue: first.structuredContent.continue });
    expect((expandTuples(second.structuredContent) as any).commits[0].oldPath).toBe("src/util.ts");
    const i = await call(client, "lore_intent", { path: "src/app.ts", startLine: 4, endLine: 6 });
    expect((expandTuples(i.structuredContent) as any).commits[0].message).toContain("see issue 7");
  });

  test("a line range narrows blame, and a number where a string is declared is taken", async () => {
    const r = await call(client, "lore_blame", { path: "src/app.ts", startLine: 4, endLine: 6 });
    // The range asked, held whole, is the agent's own echo: the hunks say the lines, or, where one
    // commit wrote them all (as git blame -L 4,6 says), its one row in commits.
    expect(r.structuredContent.range).toBeUndefined();
    const shas = new Set(git(repo.dir, ["blame", "--porcelain", "-L", "4,6", "--", "src/app.ts"]).match(/^[0-9a-f]{40}(?= )/gm)!.map((s) => s.slice(0, 12)));
    const hunks = r.structuredContent.hunks ?? [[4, 6, Object.keys(r.structuredContent.commits)[0]]];
    expect(r.structuredContent.hunks === undefined).toBe(shas.size === 1);
    expect([hunks[0][0], hunks.at(-1)[1]]).toEqual([4, 6]);
    expect(new Set(hunks.map((h: any[]) => h[2]))).toEqual(shas);
    // Taken as the path "404" (not found), not refused as a number.
    const c = await call(client, "lore_owners", { path: 404 });
    expect(c.content[0]!.text).toContain("PATH_NOT_FOUND");
    // cochange's window size is offered on the CLI only: an agent's extra field is refused by name.
    const w = await call(client, "lore_cochange", { paths: ["src/app.ts"], commits: 100 });
    expect(w.isError).toBe(true);
  });

  test("errors come back as tool results with a code and no structuredContent", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["lore_blame", { path: "src/missing.ts" }, "PATH_NOT_FOUND"],
      ["lore_blame", { path: "src/app.ts", startLine: 9, endLine: 2 }, "BAD_RANGE"],
      ["lore_blame", { path: "src/app.ts", startLine: 500 }, "BAD_RANGE"],
      ["lore_blame", { path: "assets/logo.png" }, "BINARY_FILE"],
      ["lore_blame", { path: "src/app.ts", startLine: "four" }, "BAD_ARGUMENT"],
      ["lore_blame", { path: "src/app.ts", colour: true }, "BAD_ARGUMENT"],
      ["lore_intent", { path: "src/app.ts" }, "BAD_ARGUMENT"],
      ["lore_history", { path: "../outside.txt" }, "PATH_OUTSIDE_REPO"],
      ["lore_status", { repo: other.dir }, "REPO_NOT_ALLOWED"],
      ["lore_status", { repo: "/" }, "REPO_NOT_ALLOWED"],
      ["lore_blame", { path: "src/app.ts", until: "no-such-branch" }, "BAD_REVISION"],
    ];
    for (const [name, args, code] of cases) {
      const r = await call(client, name, args);
      expect({ name, args, isError: r.isError, code: r.content[0]!.text.split(":")[0] }).toEqual({ name, args, isError: true, code });
      expect(r.structuredContent).toBeUndefined();
    }
  });

  test("a repository listed in LORE_MCP_ALLOWED_REPOS may be named with repo", async () => {
    const allowed = await connect(repo.dir, { LORE_MCP_ALLOWED_REPOS: `/nonexistent:${other.dir}` });
    const r = await call(allowed, "lore_history", { repo: other.dir, path: "src/app.ts", limit: 1 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.repo).toBe(other.dir);
  });

  test("an answer over the size budget is cut, marked truncated, still valid, and says how to get the rest", async () => {
    const small = await connect(repo.dir, { LORE_MCP_MAX_BYTES: "4096" });
    const { tools: listed } = await small.listTools();
    const r = await call(small, "lore_blame", { path: "data/big.txt" });
    expect(r.isError).toBeFalsy();
    expect(Buffer.byteLength(JSON.stringify(r.structuredContent))).toBeLessThanOrEqual(4096);
    const token = r.structuredContent.continue;
    expect(token).toMatch(/^\d+$/);
    const hunks = r.structuredContent.hunks as [number, number, string][];
    expect(hunks.length).toBeLessThan(1500);
    expect(Object.keys(r.structuredContent.commits).sort()).toEqual([...new Set(hunks.map((h) => h[2]))].sort());
    const next = hunks[hunks.length - 1]![1] + 1;
    expect(r.content[0]!.text).toContain(`continue ${token}`);
    const schema = listed.find((t) => t.name === "lore_blame")!.outputSchema;
    const valid = new AjvJsonSchemaValidator().getValidator(schema as never);
    expect(valid(r.structuredContent).valid).toBe(true);
    const rest = await call(small, "lore_blame", { path: "data/big.txt", continue: token });
    expect(rest.structuredContent.hunks[0][0]).toBe(next);
    expect(valid(rest.structuredContent).valid).toBe(true);
  });
});

describe("lore mcp through the daemon", () => {
  test("answers the same objects as in-process, and the daemon is stopped after", async () => {
    const daemonHome = tempDir("lore-mcp-daemon-");
    const env = { LORE_HOME: daemonHome, LORE_NO_DAEMON: "" };
    try {
      const viaDaemon = await connect(repo.dir, env);
      for (const [name, args] of [
        ["lore_blame", { path: "src/app.ts", startLine: 2, endLine: 8 }],
        ["lore_history", { path: "src/helpers.ts" }],
        ["lore_cochange", { paths: ["src/app.ts"] }],
        ["lore_contributors", {}],
        ["lore_owners", {}],
      ] as const) {
        const a = await call(viaDaemon, name, args);
        const b = await call(client, name, args);
        expect({ name, result: a.structuredContent }).toEqual({ name, result: b.structuredContent });
      }
      const status = await call(viaDaemon, "lore_status", {});
      expect(status.structuredContent.daemon?.pid).toBeGreaterThan(0);
    } finally {
      const stop = loreCommand(["daemon", "stop"]);
      spawnSync(stop.command, stop.args, { env: serverEnv(env), encoding: "utf8", timeout: 20_000 });
      rmSync(daemonHome, { recursive: true, force: true });
    }
  });
});

test("the fixture's history is what the tests assume", () => {
  expect(git(repo.dir, ["rev-list", "--count", "HEAD"]).trim()).toBe("6");
});
