/** The two copies of an MCP answer (structuredContent, text content) say the same, each page of either fits a client, and a line history's budget goes on its changes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ALICE, BOB, TestRepo } from "../helpers/git-repo.ts";
import { agentsByGit } from "../helpers/provenance-truth.ts";
import { buildRepo, gitBlameShas, tempDir, type Fixture } from "./fixture.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

const TEXT_PAGE = 8192;

let repo: Fixture;
let fn: TestRepo;
let home: string;
let client: Client;

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

/** A function of 60 lines, of which a later commit changes two in its middle. */
function functionRepo(): TestRepo {
  const r = new TestRepo();
  const body = (changed: boolean) => Array.from({ length: 60 }, (_, i) => (changed && (i === 45 || i === 46) ? `  total += step${i} * 2; // changed` : `  total += step${i};`));
  r.write("src/sum.js", ["function restartServer(total) {", ...body(false), "  return total;", "}", ""].join("\n")).commit("Add restartServer", ALICE);
  r.write("src/sum.js", ["function restartServer(total) {", ...body(true), "  return total;", "}", ""].join("\n")).commit("Double two steps", BOB);
  r.git("tag", "v1.0.0");
  // Provenance in both copies: a pr, a release and an agent on blame's commits and contributors' rows.
  const helper = "export const helper = 1;\nexport const two = 2;\nexport const three = 3;\n";
  r.write("src/agent.js", helper).commit("Add the helper (#12)\n\nCo-authored-by: Claude <noreply@anthropic.com>", BOB);
  // A line of the person's own after it: blame's agents are three lines of four.
  r.write("src/agent.js", helper + "export const mine = 4;\n").commit("Add mine", ALICE);
  return r;
}

beforeAll(async () => {
  home = tempDir("lore-copies-home-");
  repo = buildRepo();
  fn = functionRepo();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("LORE_MCP_")) env[k] = v;
  const transport = new StdioClientTransport({ ...loreCommand(["mcp"]), cwd: repo.dir, env: { ...env, LORE_HOME: home, LORE_NO_DAEMON: "1", LORE_MCP_ALLOWED_REPOS: fn.dir }, stderr: "pipe" });
  client = new Client({ name: "lore-test", version: "0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client.close().catch(() => {});
  repo.cleanup();
  fn.cleanup();
  rmSync(home, { recursive: true, force: true });
});

/** Every value of the JSON copy (and every key that is not a field name: a path, a person, a sha), each line of a long one apart. */
function valuesOf(v: unknown, out: string[] = []): string[] {
  if (v === null || v === undefined) return out;
  if (typeof v !== "object") {
    out.push(...String(v).split("\n").filter((l) => l.trim() !== ""));
    return out;
  }
  if (Array.isArray(v)) {
    for (const x of v) valuesOf(x, out);
    return out;
  }
  // (every key of an object keyed by values is one: a person named "agchou" among "Ann Lee" and others)
  const keyedByValues = Object.keys(v).some((k) => !/^[a-z][A-Za-z]*$/.test(k));
  for (const [k, x] of Object.entries(v)) {
    if (keyedByValues) out.push(k);
    valuesOf(x, out);
  }
  return out;
}

const ASKS: [string, Record<string, unknown>][] = [
  ["lore_blame", { path: "src/app.ts" }],
  ["lore_blame", { path: "data/big.txt" }],
  ["lore_history", { path: "src/helpers.ts" }],
  ["lore_history", { path: "src/helpers.ts", limit: 1 }],
  ["lore_intent", { path: "src/app.ts", startLine: 3, endLine: 7 }],
  ["lore_cochange", { paths: ["src/app.ts"] }],
  ["lore_hotspots", {}],
  ["lore_contributors", { path: "src" }],
  ["lore_owners", { path: "src" }],
  ["lore_search", { query: "helpers" }],
  ["lore_log", { limit: 3 }],
  ["lore_compare", { base: "HEAD~3", head: "HEAD", patch: true }],
  ["lore_git", { args: ["log", "--oneline", "-n", "3"] }],
  ["lore_blame", { repo: "FN", path: "src/sum.js" }],
  ["lore_blame", { repo: "FN", path: "src/agent.js" }],
  ["lore_contributors", { repo: "FN", path: "src" }],
  ["lore_owners", { repo: "FN", path: "src" }],
];

test("each copy of an answer says every fact of the other: the text holds every value, continue token and hint of the JSON, and is no longer", async () => {
  for (const [name, asked] of ASKS) {
    const args = asked.repo === "FN" ? { ...asked, repo: fn.dir } : asked;
    const r = await call(name, args);
    expect({ name, args, isError: r.isError }).toEqual({ name, args, isError: undefined });
    expect(r.content.length).toBe(1);
    const text = r.content[0]!.text;
    const json = r.structuredContent;
    const missing = valuesOf(json).filter((v) => !text.includes(v));
    expect({ name, args, missing }).toEqual({ name, args, missing: [] });
    if (json.continue) expect(text).toContain(json.continue);
    // No summary in one copy with the rows in the other: the text is not longer than the JSON.
    expect({ name, args, longer: text.length > JSON.stringify(json).length }).toEqual({ name, args, longer: false });
  }
});

test("every page's text is at most 8,192 characters, and a whole-file blame's page says the lines it holds, in both copies", async () => {
  const truth = gitBlameShas(repo.dir, "data/big.txt");
  const mine: string[] = [];
  let pages = 0;
  for (let token: string | undefined; ; ) {
    const r = await call("lore_blame", { path: "data/big.txt", ...(token ? { continue: token } : {}) });
    pages++;
    const text = r.content[0]!.text;
    expect(text.length).toBeLessThanOrEqual(TEXT_PAGE);
    const hunks = r.structuredContent.hunks as [number, number, string][];
    for (const [start, end, sha] of hunks) for (let l = start; l <= end; l++) mine[l - 1] = sha;
    const held = [hunks[0]![0], hunks[hunks.length - 1]![1]];
    expect(r.structuredContent.range).toEqual(held);
    expect(text).toContain(`range ${held.join(" ")}`);
    token = r.structuredContent.continue;
    if (!token) break;
  }
  expect(mine).toEqual(truth);
  expect(pages).toBeGreaterThan(1);
  // A file's text (show REV:PATH) pages within the same limit.
  const show = await call("lore_show", { rev: "HEAD:data/big.txt" });
  expect(show.content[0]!.text.length).toBeLessThanOrEqual(TEXT_PAGE);
  expect(show.content[0]!.text).toMatch(/more lines from startLine \d+/);
});

test("blame's lines by agent are in both copies as git blame and the trailers say them, left out where no agent wrote a line, and where the one commit asked for says it", async () => {
  const claude = [...agentsByGit(fn.dir)].filter(([, a]) => a === "claude").map(([sha]) => sha.slice(0, 12));
  const lines = gitBlameShas(fn.dir, "src/agent.js").filter((sha) => claude.includes(sha)).length;
  expect(lines).toBe(3);
  const r = await call("lore_blame", { repo: fn.dir, path: "src/agent.js" });
  expect(r.structuredContent.agents).toEqual({ claude: lines });
  expect(r.content[0]!.text).toContain(`\nagents\n claude ${lines}`);
  const none = await call("lore_blame", { repo: fn.dir, path: "src/sum.js" });
  expect(none.structuredContent.agents).toBeUndefined();
  expect(none.content[0]!.text).not.toContain("agents");
  // Lines 1-2, all Claude's commit: the answer says the lines' agent beside the commit, and the count is the range asked.
  const one = await call("lore_blame", { repo: fn.dir, path: "src/agent.js", startLine: 1, endLine: 2 });
  expect(Object.values(one.structuredContent.commits)).toEqual([[BOB.name, expect.any(String), "Add the helper (#12)"]]);
  expect([one.structuredContent.agent, one.structuredContent.release, one.structuredContent.agents]).toEqual(["claude", "unreleased", undefined]);
  expect(one.content[0]!.text).toContain("agent claude");
});

test("an error is one text block that says it all, and no structuredContent", async () => {
  const r = await call("lore_blame", { path: "src/missing.ts" });
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  expect(r.content.length).toBe(1);
  expect(r.content[0]!.text).toMatch(/^PATH_NOT_FOUND: src\/missing\.ts .+\.$/);
});

test("a line history's diff lines go to the lines a commit changed, and its cut names the tool's argument", async () => {
  const r = await call("lore_history", { repo: fn.dir, path: "src/sum.js", lines: ":restartServer" });
  const texts = [JSON.stringify(r.structuredContent), r.content[0]!.text];
  for (const copy of texts) {
    expect(copy).toContain("+  total += step45 * 2; // changed");
    expect(copy).toContain("+  total += step46 * 2; // changed");
    expect(copy).toContain("-  total += step45;");
    expect(copy).not.toContain("--diff-lines");
  }
  // Even with room for fewer lines than the change, the changed lines come first, and the cut says diffLines.
  const few = await call("lore_history", { repo: fn.dir, path: "src/sum.js", lines: ":restartServer", diffLines: 3 });
  for (const copy of [JSON.stringify(few.structuredContent), few.content[0]!.text]) {
    expect(copy).toContain("-  total += step45;");
    expect(copy).toContain("(diffLines)");
    expect(copy).not.toContain("--diff-lines");
  }
});
