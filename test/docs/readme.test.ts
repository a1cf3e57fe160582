/** The README is a front door a newcomer can follow: short, its fresh-clone command runs as written, and its other commands name what the project really ships and runs. */
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ROOT } from "../../build/build-info.ts";
import { HOMEPAGE } from "../../build/homebrew.ts";
import { LAUNCHER_PACKAGE } from "../../build/npm-packages.ts";
import { MARKETPLACE } from "../../build/plugin-files.ts";
import { freshClone } from "../helpers/fresh-clone.ts";
import { tempDir } from "../helpers/git-repo.ts";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const scratch = tempDir("lore-readme-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The commands of the code block after a `<!-- readme-test: NAME -->` marker, comments cut. */
function markedCommands(name: string): string[] {
  const at = readme.indexOf(`<!-- readme-test: ${name} -->`);
  if (at < 0) throw new Error(`README.md has no <!-- readme-test: ${name} --> block`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  return block.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}

function sh(command: string, cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync("sh", ["-c", command], { cwd, encoding: "utf8", timeout: 300_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("the README is a front door of at most 250 lines", () => {
  expect(readme.split("\n").length).toBeLessThanOrEqual(250);
});

test("the README's test command is the one .ci/run runs", () => {
  const [, testCommand] = markedCommands("fresh-clone");
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8").trim().split("\n");
  expect(ci.at(-1)).toBe(testCommand!);
});

test("the README installs what the release builds (install.sh, the tap's formula, the npm launcher) and, one line per host, the agent plugins", () => {
  const lines = /## Install\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split("\n");
  const repo = HOMEPAGE.replace("https://github.com/", "");
  expect(lines).toEqual([
    `curl -fsSL ${HOMEPAGE}/releases/latest/download/install.sh | sh`,
    "brew install lore-dev/tap/lore",
    `npm install -g ${LAUNCHER_PACKAGE}`,
    `claude plugin marketplace add ${repo} && claude plugin install lore@${MARKETPLACE}`,
    `codex plugin marketplace add ${repo} && codex plugin add lore@${MARKETPLACE}`,
    `gemini extensions install ${HOMEPAGE}`,
  ]);
  expect(readFileSync(join(ROOT, "install.sh"), "utf8")).toContain(`REPO_URL="${HOMEPAGE}"`);
});

test("the README names the Node version package.json's engines declare, and the clients' lockfile pins what the tests drive", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const major = /^>=(\d+)$/.exec(pkg.engines.node)![1];
  expect(readme).toContain(`On a machine with Node ${major} or newer, npm and git`);
  const clients = JSON.parse(readFileSync(join(ROOT, "test", "clients", "package.json"), "utf8"));
  expect(Object.keys(clients.dependencies).sort()).toEqual(["@anthropic-ai/claude-code", "@google/gemini-cli", "@openai/codex", "opencode-ai", "playwright-core"]);
  expect(Object.keys(pkg.devDependencies).filter((d) => d in clients.dependencies)).toEqual([]);
  expect(existsSync(join(ROOT, "test", "clients", "package-lock.json"))).toBe(true);
});

test("every docs/ page the README links to exists", () => {
  const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThan(5);
  expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
});

test("the README's set-up command runs as written in a fresh clone: npm ci, the build, a first answer, and the binary's MCP at 2026-07-28", async () => {
  const [setUp] = markedCommands("fresh-clone");
  expect(setUp).toStartWith("npm ci && npm run build && ./dist/lore ");
  const dir = freshClone(join(scratch, "clone"));
  // npm_config_offline: npm ci takes the packages from npm's cache (CI has just filled it), so the test asks no registry.
  const home = join(scratch, "lore-home");
  const env = { npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", LORE_HOME: home };
  try {
    const r = sh(setUp!, dir, env);
    expect(r.stderr.split("\n").filter((l) => /npm error|EBADENGINE/.test(l))).toEqual([]);
    expect(r.code).toBe(0);
    // What the README says npm ci brings: no agent CLI, no playwright (test/clients has those).
    for (const big of ["@anthropic-ai/claude-code", "@openai/codex", "@google/gemini-cli", "opencode-ai", "playwright-core"]) expect(existsSync(join(dir, "node_modules", big))).toBe(false);
    // npm's lines, then hotspots as text: a table under a "score … file" header whose rows end with a path; the first is a file git knows.
    const rows = r.stdout.trim().split("\n");
    const header = rows.findIndex((l) => /^score\s.*\sfile$/.test(l.trim()));
    expect(header).toBeGreaterThan(0);
    const firstPath = rows[header + 1]?.trim().split(/\s+/).filter((w) => w !== "*").at(-1);
    const tracked = spawnSync("git", ["ls-files"], { cwd: dir, encoding: "utf8" }).stdout.split("\n");
    expect(tracked).toContain(firstPath!);
    // The bundle keeps the SDK's stdio entry whole: a 2026-07-28 client of SDK 2 lists the tools and gets an answer from the binary.
    const client = new Client({ name: "readme-test", version: "0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StdioClientTransport({ command: join(dir, "dist", "lore"), args: ["mcp"], cwd: dir, env: { ...(process.env as Record<string, string>), ...env } }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("lore_blame");
      const status = await client.callTool({ name: "lore_status", arguments: {} });
      expect([status.isError, (status.structuredContent as { state?: string }).state]).toEqual([undefined, expect.any(String)]);
    } finally {
      await client.close();
    }
  } finally {
    sh("./dist/lore daemon stop", dir, env);
  }
}, 300_000);
