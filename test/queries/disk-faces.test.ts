/** The file on disk through every face: the daemon's RPC, MCP's structuredContent (valid against its outputSchema) and the CLI's text. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { runtime } from "../../src/runtime/index.ts";
import { daemonHome, discardHome, loreSync } from "../daemon/daemon-helpers.ts";
import { expectBlameLikeGit, gitDiskLines, gitDirHash } from "../helpers/disk-truth.ts";
import { BOB, lines, TestRepo } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

let repo: TestRepo;
let home: string;
let client: Client;

beforeAll(async () => {
  home = daemonHome();
  process.env.LORE_HOME = home;
  repo = new TestRepo();
  repo.write("src/app.js", lines(...Array.from({ length: 40 }, (_, i) => `line ${i + 1}`)));
  repo.commit("first");
  repo.write("src/app.js", lines(...Array.from({ length: 40 }, (_, i) => (i === 9 ? "line 10 by bob" : `line ${i + 1}`))));
  repo.commit("second", BOB);
  // The agent's edit, not committed: two lines on top, one changed, one gone.
  repo.write("src/app.js", lines("// new", "// newer", ...Array.from({ length: 40 }, (_, i) => (i === 9 ? "line 10 by bob" : i === 20 ? "line 21 changed" : `line ${i + 1}`)).filter((_, i) => i !== 30)));
  const started = loreSync(home, repo.dir, ["daemon", "start"]);
  if (started.code !== 0) throw new Error(started.stderr);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  client = new Client({ name: "lore-test", version: "0" });
  await client.connect(new StdioClientTransport({ ...loreCommand(["mcp"]), cwd: repo.dir, env: { ...env, LORE_HOME: home, LORE_NO_DAEMON: "1" }, stderr: "pipe" }));
}, 60_000);

afterAll(async () => {
  await client.close().catch(() => {});
  await discardHome(home);
  repo.cleanup();
}, 60_000);

test("the daemon's RPC answers blame, intent and history -L about the file on disk, as in-process and as git", async () => {
  const inProcess = await expectBlameLikeGit(repo.dir, "src/app.js");
  const before = gitDirHash(repo.dir);
  const post = async (method: string, params: Record<string, unknown>) =>
    JSON.parse((await runtime.requestUnix(join(home, "lore.sock"), "POST", "/rpc", JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { repo: repo.dir, ...params } }), 10_000)).body).result;
  expect(await post("blame", { path: "src/app.js" })).toEqual(inProcess);
  const intent = await post("intent", { path: "src/app.js", startLine: 1, endLine: 12 });
  expect(intent).toMatchObject({ worktree: true, uncommitted: [[1, 2]] });
  expect(intent.commits.map((c: any) => c.lines)).toEqual([[[12, 12]], [[3, 11]]]);
  const history = await post("history", { path: "src/app.js", lines: "1,5" });
  expect(history).toMatchObject({ range: [1, 5], headRange: [1, 3], uncommitted: [[1, 2]], worktree: true });
  expect(gitDirHash(repo.dir)).toBe(before);
});

test("the daemon's answers follow each edit of the file: a cached answer is never one about an older disk file", async () => {
  const post = async (params: Record<string, unknown>) =>
    JSON.parse((await runtime.requestUnix(join(home, "lore.sock"), "POST", "/rpc", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "blame", params: { repo: repo.dir, path: "src/app.js", ...params } }), 10_000)).body).result;
  const saved = readFileSync(join(repo.dir, "src/app.js"));
  try {
    repo.git("checkout", "--", "src/app.js");
    const clean = await post({});
    expect(clean.worktree).toBeUndefined();
    expect(await post({})).toEqual(clean);
    for (const top of ["// one", "// two\n// three"]) {
      writeFileSync(join(repo.dir, "src/app.js"), `${top}\n` + readFileSync(join(repo.dir, "src/app.js"), "utf8"));
      const r = await post({});
      expect(r.lines).toBe(gitDiskLines(repo.dir, "src/app.js").length);
      expect(r.hunks[0]).toEqual([1, top.split("\n").length + (r.lines > 41 ? 1 : 0), null]);
    }
    repo.git("checkout", "--", "src/app.js");
    expect(await post({})).toEqual(clean);
  } finally {
    writeFileSync(join(repo.dir, "src/app.js"), saved);
  }
});

test("MCP's structuredContent carries the on-disk answer and matches the tool's outputSchema", async () => {
  const tools = (await client.listTools()).tools;
  const ajv = new AjvJsonSchemaValidator();
  const truth = gitDiskLines(repo.dir, "src/app.js");
  for (const [name, args] of [
    ["lore_blame", { path: join(repo.dir, "src/app.js"), startLine: 1, endLine: 25 }],
    ["lore_intent", { path: "src/app.js", startLine: 20, endLine: 24 }],
    ["lore_history", { path: "src/app.js", lines: "1,4" }],
  ] as const) {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any; content: { text: string }[] };
    expect({ name, isError: r.isError ?? false }).toEqual({ name, isError: false });
    expect(r.structuredContent.worktree).toBe(true);
    const schema = tools.find((t) => t.name === name)!.outputSchema;
    expect({ name, error: ajv.getValidator(schema as never)(r.structuredContent).errorMessage }).toEqual({ name, error: undefined });
    if (name === "lore_blame") {
      const shas = r.structuredContent.hunks.flatMap(([s, e, sha]: [number, number, string | null]) => Array.from({ length: e - s + 1 }, () => sha));
      expect(shas).toEqual(truth.slice(0, 25).map((o) => o.sha));
    }
    if (name === "lore_intent") expect(r.structuredContent.uncommitted).toEqual([[23, 23]]);
  }
});

test("the CLI's text says which lines are not committed and that line numbers are the file's on disk", () => {
  const blame = cli(repo.dir, ["blame", "src/app.js", "-L", "1,12"], { LORE_HOME: home });
  expect(blame.code).toBe(0);
  expect(blame.stdout).toContain("not committed");
  expect(blame.stdout).toContain("on disk");
  const intent = cli(repo.dir, ["intent", "src/app.js", "-L", "1,3"], { LORE_HOME: home });
  expect(intent.stdout).toMatch(/on disk/);
  expect(intent.stdout).toMatch(/not committed.*lines 1-2/);
  const history = cli(repo.dir, ["history", "src/app.js", "-L", "1,2"], { LORE_HOME: home });
  expect(history.stdout).toMatch(/not committed.*lines 1-2/);
  const json = cli(repo.dir, ["blame", "src/app.js", "-L", "1,2", "--json"], { LORE_HOME: home });
  expect(json.json.hunks).toEqual([[1, 2, null]]);
});
