/**
 * docs/cloud.md's recipes run as written: the publishing workflow's steps in a full clone, each
 * sandbox's setup in a shallow clone, against a local server standing in for the storage; then
 * lore answers as git does in a full clone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { block, expression, loreOnPath, plainPath, storage, withoutInstall, workflowSteps, type Storage } from "./cloud-recipes.ts";

const root = tempDir("lore-cloud-");
const PATH = plainPath(loreOnPath(join(root, "bin")));
let store: Storage;
let origin: TestRepo;
/** The commit the published index is at. */
let published = "";
/** What the publishing job printed on its second run. */
let secondRun = "";
let file = "";

/** The environment a recipe's shell gets: its own HOME (so lore's default ~/.lore), the product's secrets, no daemon. */
function envOf(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH, HOME: home, LORE_NO_DAEMON: "1", NO_COLOR: "1", LORE_INDEX_URL: store.url, LORE_INDEX_HEADER: "Authorization: Bearer read-secret", ...extra };
}

/** Runs a recipe's shell; not spawnSync: the storage server answers from this process's event loop. */
async function sh(script: string, cwd: string, env: Record<string, string>) {
  const child = Bun.spawn(["sh", "-e", "-c", script], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** Runs a workflow's `run:` steps in order as a runner would (bash -e each), with the `uses:` steps left to the test. */
async function runWorkflow(yaml: string, workspace: string, home: string, secrets: Record<string, string>): Promise<{ stderr: string; steps: ReturnType<typeof workflowSteps> }> {
  const temp = join(home, "runner-temp");
  spawnSync("mkdir", ["-p", temp]);
  const context = { "runner.temp": temp, "github.sha": runGit(workspace, ["rev-parse", "HEAD"]).trim(), ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [`secrets.${k}`, v])) };
  const steps = workflowSteps(yaml);
  let stderr = "";
  for (const s of steps) {
    if (!s.run) continue;
    const env = { ...envOf(home, { RUNNER_TEMP: temp, GITHUB_PATH: join(temp, "path"), GITHUB_WORKSPACE: workspace }) };
    for (const [k, v] of Object.entries(s.env)) env[k] = expression(v, context);
    const r = await sh(withoutInstall(s.run).shell, workspace, env);
    stderr += r.stderr;
    if (r.code !== 0) throw new Error(`step failed: ${s.run}\n${r.stderr}`);
  }
  return { stderr, steps: steps.map((s) => ({ ...s, with: Object.fromEntries(Object.entries(s.with).map(([k, v]) => [k, expression(v, context)])) })) };
}

const lore = (cwd: string, home: string, args: string[]) => spawnSync("lore", args, { cwd, env: envOf(home), encoding: "utf8" });

function gitBlame(dir: string, path: string): string[] {
  return [...runGit(dir, ["blame", "--porcelain", "--", path]).matchAll(/^([0-9a-f]{40}) \d+ \d+/gm)].map((m) => m[1]!.slice(0, 12));
}

/** lore's blame and log in the sandbox equal git's in the full origin, with no word of where history stops. */
function answersInFull(sandbox: string, home: string): void {
  const blame = JSON.parse(lore(sandbox, home, ["blame", file, "--json"]).stdout);
  expect(blame.historyStops).toBeUndefined();
  expect(blame.hunks.flatMap(([a, b, sha]: [number, number, string]) => Array(b - a + 1).fill(sha))).toEqual(gitBlame(origin.dir, file));
  const log = JSON.parse(lore(sandbox, home, ["log", "-n", "500", "--json"]).stdout);
  expect(log.historyStops).toBeUndefined();
  expect(log.commits.map((c: any) => c.sha)).toEqual(runGit(origin.dir, ["log", "--format=%h", "--abbrev=12"]).trim().split("\n"));
}

/** A sandbox's checkout: a shallow clone of the origin. */
function checkout(name: string, depth: number): string {
  const dir = join(root, name);
  runGit(root, ["clone", "-q", "--depth", String(depth), `file://${origin.dir}`, dir]);
  return dir;
}

function commits(n: number, what: string): void {
  for (let i = 0; i < n; i++) origin.write(file, readFileSync(join(origin.dir, file), "utf8") + `${what} ${i}\n`).commit(`${what} ${i}`);
}

beforeAll(async () => {
  store = storage("upload-secret", "read-secret");
  const dir = join(root, "origin");
  await generateRepo({ dir, commits: 150, files: 20, seed: 7, mergeEvery: 6 });
  origin = new TestRepo(dir, false);
  origin.git("config", "user.name", "Test Committer");
  origin.git("config", "user.email", "committer@example.com");
  // A file long enough for AGENTS.md's -L 10,20.
  file = runGit(dir, ["ls-files"]).split("\n").find((f) => f.endsWith(".ts") && readFileSync(join(dir, f), "utf8").split("\n").length > 30)!;
  // The publishing job, twice: its cache (~/.lore/repos, kept in its HOME) makes the second read only the 3 commits pushed since.
  const workflow = block("publish");
  const home = join(root, "runner-home");
  const secrets = { LORE_UPLOAD_URL: store.url, LORE_UPLOAD_HEADER: "Authorization: Bearer upload-secret" };
  for (const run of [1, 2]) {
    const workspace = join(root, "runner-work");
    rmSync(workspace, { recursive: true, force: true });
    runGit(root, ["clone", "-q", "--no-local", dir, workspace]);
    const r = await runWorkflow(workflow, workspace, home, secrets);
    const artifact = r.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(existsSync(artifact.with.path!)).toBe(true);
    if (run === 1) commits(3, "pushed");
    else secondRun = r.stderr;
  }
  published = origin.head();
  // The sandboxes start 3 commits after the published index.
  commits(3, "after");
}, 120_000);

afterAll(() => {
  store?.stop();
  if (!process.env.KEEP_SCRATCH) rmSync(root, { recursive: true, force: true });
});

describe("publishing the index on each push", () => {
  test("the workflow checks out the whole history, installs lore as the README does, and keeps the index in actions/cache", () => {
    const steps = workflowSteps(block("publish"));
    expect(steps[0]!.uses).toStartWith("actions/checkout@");
    expect(steps[0]!.with["fetch-depth"]).toBe("0");
    expect(steps.find((s) => s.uses?.startsWith("actions/cache@"))!.with.path).toBe("~/.lore/repos");
    expect(steps.map((s) => (s.run ? withoutInstall(s.run).installs : 0)).reduce((a, b) => a + b)).toBe(1);
  });

  test("its steps PUT the index file to the storage with the upload token, and the second run reads only the new commits", () => {
    expect(store.requests.filter((r) => r.method === "PUT")).toEqual([
      { method: "PUT", authorized: true },
      { method: "PUT", authorized: true },
    ]);
    expect(secondRun).toContain("(3 new commits)");
  });
});

/** Connects to the MCP server a product's JSON names (command and args) in the sandbox, and asks it for a blame. */
async function mcpBlame(json: any, sandbox: string, home: string): Promise<any> {
  const server = json.mcpServers.lore;
  const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd: sandbox, env: envOf(home), stderr: "pipe" });
  const client = new Client({ name: "cloud-test", version: "0" });
  await client.connect(transport);
  try {
    return ((await client.callTool({ name: "lore_blame", arguments: { path: file } })) as any).structuredContent;
  } finally {
    await client.close();
  }
}

describe("the sandboxes' setup, in a depth-10 clone 3 commits ahead of the index", () => {
  let sandbox: string;
  beforeAll(() => {
    sandbox = checkout("sandbox", 10);
  });

  test("Copilot: the setup steps import the index with the header from its secrets; the repository's MCP JSON starts lore's server", async () => {
    const home = tempDir("lore-cloud-copilot-");
    const steps = workflowSteps(block("copilot-setup"));
    expect(steps[0]!.uses).toStartWith("actions/checkout@");
    const script = steps.filter((s) => s.run).map((s) => withoutInstall(s.run!));
    expect(script.reduce((n, s) => n + s.installs, 0)).toBe(1);
    const before = store.requests.length;
    // Without the header the storage says 401, and lore says why.
    const refused = await sh(script.map((s) => s.shell).join("\n"), sandbox, { ...envOf(home), LORE_INDEX_HEADER: "" });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("INDEX_DOWNLOAD_FAILED");
    expect(refused.stderr).not.toContain("read-secret");
    const r = await sh(script.map((s) => s.shell).join("\n"), sandbox, envOf(home));
    expect(r.code).toBe(0);
    expect(store.requests.slice(before)).toEqual([
      { method: "GET", authorized: false },
      { method: "GET", authorized: true },
    ]);
    answersInFull(sandbox, home);
    const mcp = JSON.parse(block("copilot-mcp"));
    expect(mcp.mcpServers.lore).toMatchObject({ type: "local", tools: ["*"] });
    const blame = await mcpBlame(mcp, sandbox, home);
    expect(blame.historyStops).toBeUndefined();
    expect(blame.hunks.length).toBeGreaterThan(0);
  });

  test("Claude Code on the web: the setup script installs, the SessionStart hook imports only in a remote session, .mcp.json starts lore's server", async () => {
    const home = tempDir("lore-cloud-claude-");
    expect(withoutInstall(block("claude-setup")).installs).toBe(1);
    const hook = JSON.parse(block("claude-settings")).hooks.SessionStart[0];
    expect(hook.matcher).toBe("startup");
    const command = hook.hooks[0].command;
    // On a developer's machine: nothing.
    const local = await sh(command, home, envOf(home, { CLAUDE_PROJECT_DIR: sandbox }));
    expect(local.code).toBe(0);
    expect(existsSync(join(home, ".lore"))).toBe(false);
    const r = await sh(command, home, envOf(home, { CLAUDE_PROJECT_DIR: sandbox, CLAUDE_CODE_REMOTE: "true" }));
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
    answersInFull(sandbox, home);
    const blame = await mcpBlame(JSON.parse(block("claude-mcp")), sandbox, home);
    expect(blame.historyStops).toBeUndefined();
  });

  test("Codex cloud: the setup script imports, AGENTS.md's commands answer, the maintenance script catches up a newer checkout", async () => {
    const home = tempDir("lore-cloud-codex-");
    const mine = checkout("codex-sandbox", 10);
    const setup = withoutInstall(block("codex-setup"));
    expect(setup.installs).toBe(1);
    expect((await sh(setup.shell, mine, envOf(home))).code).toBe(0);
    answersInFull(mine, home);
    const commands = [...block("agents-md").matchAll(/`(lore [^`]+)`/g)].map((m) => m[1]!.replaceAll("FILE", file).replace("WORDS", "Merge"));
    expect(commands.length).toBeGreaterThanOrEqual(7);
    for (const c of commands) expect({ c, code: (await sh(c, mine, envOf(home))).code }).toEqual({ c, code: 0 });
    // A resumed container's checkout has moved on by a commit.
    const clone = new TestRepo(mine, false);
    clone.git("config", "user.name", "Agent");
    clone.git("config", "user.email", "agent@example.com");
    clone.write(file, readFileSync(join(mine, file), "utf8") + "resumed\n").commit("resumed");
    const r = await sh(block("codex-maintenance"), mine, { ...envOf(home), LORE_INDEX_URL: "", LORE_INDEX_HEADER: "" });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("(1 new commit)");
  });

  test("Cursor: environment.json's install imports the index, and runs again as well", async () => {
    const home = tempDir("lore-cloud-cursor-");
    const [install, ...rest] = (JSON.parse(block("cursor")).install as string).split(" && ");
    expect(withoutInstall(install!).installs).toBe(1);
    const shell = rest.join(" && ");
    for (const run of [1, 2]) expect({ run, code: (await sh(shell, sandbox, envOf(home))).code }).toEqual({ run, code: 0 });
    answersInFull(sandbox, home);
  });

  test("a devcontainer: postCreateCommand imports with the variables containerEnv takes from the machine, and lore setup finding no agent fails nothing", async () => {
    const home = tempDir("lore-cloud-devcontainer-");
    const config = parseJsonc(block("devcontainer"));
    const local: Record<string, string> = { LORE_INDEX_URL: store.url, LORE_INDEX_HEADER: "Authorization: Bearer read-secret" };
    const env: Record<string, string> = { ...envOf(home), LORE_INDEX_URL: "", LORE_INDEX_HEADER: "" };
    for (const [k, v] of Object.entries(config.containerEnv as Record<string, string>)) env[k] = v.replace(/\$\{localEnv:(\w+)\}/g, (_, n: string) => local[n]!);
    const command: string = config.postCreateCommand;
    const [install, ...rest] = command.split(" && ");
    expect(withoutInstall(install!).installs).toBe(1);
    const r = await sh(rest.join(" && "), sandbox, env);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain("No coding agent found");
    answersInFull(sandbox, home);
  });
});

describe("an index older than the clone", () => {
  test("the import loop fetches deeper when the index is older than the clone's oldest commit, then imports", async () => {
    const home = tempDir("lore-cloud-older-");
    const sandbox = checkout("older", 2);
    const r = await sh(block("older"), sandbox, envOf(home));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("INDEX_FOREIGN");
    expect(runGit(sandbox, ["cat-file", "-t", published]).trim()).toBe("commit");
    answersInFull(sandbox, home);
  });

  test("a clone one commit short of the index's head imports it and names that boundary commit, which neither git nor the index can diff", async () => {
    const home = tempDir("lore-cloud-short-");
    const sandbox = checkout("short", 3);
    const boundary = readFileSync(join(sandbox, ".git", "shallow"), "utf8").trim();
    expect(runGit(origin.dir, ["rev-parse", `${boundary}^`]).trim()).toBe(published);
    expect((await sh(`lore index import "$LORE_INDEX_URL"`, sandbox, envOf(home))).code).toBe(0);
    const log = JSON.parse(lore(sandbox, home, ["log", "--json"]).stdout);
    expect(Object.keys(log.historyStops.at)).toEqual([boundary.slice(0, 12)]);
  });
});
