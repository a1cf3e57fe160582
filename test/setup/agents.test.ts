import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BLOCK_BEGIN } from "../../src/setup/edit/marked-block.ts";
import { INSTRUCTIONS_TEXT } from "../../src/setup/instructions-text.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { AgentHome } from "./agent-env.ts";

// Each listing starts the client and (gemini, opencode, claude) connects to lore mcp: seconds each.
setDefaultTimeout(90_000);

let h: AgentHome;
const f = (...p: string[]) => join(h.home, ...p);
let files: string[];
let before: Map<string, string | null>;
/** What setup registers: the lore that runs it (the test binary, or bun and src/main.ts from source). */
const server = loreCommand(["mcp"]);
const serverLine = [server.command, ...server.args].join(" ");

// What a user already has: comments, other servers, a profile, instructions without a final newline.
const CODEX_TOML = `# my Codex settings
model = "o3"  # the one I like

[mcp_servers.docs]
command = "npx"   # keep this comment
args = [ "-y",  "docs-mcp" ]

[profiles.fast]
model = "o4-mini"
`;
const GEMINI_SETTINGS = `{
  // no usage statistics from tests
  "privacy": { "usageStatisticsEnabled": false },
  "mcpServers": {
    "other": { "command": "true", "args": [] }
  }
}
`;
const OPENCODE_JSON = `{
  "$schema": "https://opencode.ai/config.json",
  // a disabled server of the user's own
  "mcp": {
    "off": { "type": "local", "command": ["true"], "enabled": false }
  }
}
`;

beforeAll(() => {
  h = new AgentHome(["claude", "codex", "gemini", "opencode"]);
  for (const d of [".codex", ".gemini", ".config/opencode"]) mkdirSync(f(d), { recursive: true });
  writeFileSync(f(".codex", "config.toml"), CODEX_TOML);
  writeFileSync(f(".codex", "AGENTS.md"), "# My rules\n\nAlways run the tests.");
  writeFileSync(f(".gemini", "settings.json"), GEMINI_SETTINGS);
  writeFileSync(f(".config", "opencode", "opencode.json"), OPENCODE_JSON);
  files = [
    f(".codex", "config.toml"),
    f(".codex", "AGENTS.md"),
    f(".gemini", "settings.json"),
    f(".gemini", "GEMINI.md"),
    f(".config", "opencode", "opencode.json"),
    f(".config", "opencode", "AGENTS.md"),
    f(".claude", "skills", "lore", "SKILL.md"),
  ];
  before = h.snapshot(files);
});
afterAll(() => h.cleanup());

describe("lore setup with the real Codex, Gemini CLI, opencode and Claude Code", () => {
  test("the pinned clients run offline in the private HOME", () => {
    expect(h.run("codex", ["--version"]).stdout).toContain("0.171.0");
    expect(h.run("gemini", ["--version"]).stdout).toContain("0.61.0");
    expect(h.run("opencode", ["--version"]).stdout).toContain("1.18.33");
  });

  test("setup finds the four clients on the PATH, sets each up, and says which it skipped", () => {
    const r = h.lore(["setup"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/^Found: Claude Code \(claude on the PATH\), Codex CLI \(codex on the PATH\), Gemini CLI \(gemini on the PATH\), opencode \(opencode on the PATH\)\.$/m);
    expect(r.stdout).toMatch(/^Skipped, not found: Cursor, VS Code, Claude Desktop, Zed\./m);
    expect(r.stdout).toContain("Codex reads it: codex mcp get lore shows this lore");
    expect(r.stdout).toContain("Gemini CLI starts MCP servers only in folders you trust");
    expect(r.stdout).toContain("✔ Connected");
  });

  test("codex mcp list shows lore with this lore's absolute command", () => {
    const r = h.run("codex", ["mcp", "list", "--json"]);
    expect(r.code).toBe(0);
    const lore = JSON.parse(r.stdout).find((s: { name: string }) => s.name === "lore");
    expect(lore.enabled).toBe(true);
    expect(lore.transport).toMatchObject({ type: "stdio", ...server });
    expect(JSON.parse(r.stdout).map((s: { name: string }) => s.name).sort()).toEqual(["docs", "lore"]);
  });

  test("gemini mcp list shows lore connected", () => {
    const r = h.run("gemini", ["mcp", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain(`✓ lore: ${serverLine} (stdio) - Connected`);
  });

  test("opencode mcp list shows lore connected", () => {
    const r = h.run("opencode", ["mcp", "list"]);
    expect(r.code).toBe(0);
    const out = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    expect(out).toMatch(/✓ lore\s+connected/);
    expect(out).toContain(serverLine);
  });

  test("claude mcp get shows lore connected", () => {
    const r = h.run("claude", ["mcp", "get", "lore"]);
    expect(r.stdout).toMatch(/Status: ✔ Connected/);
  });

  test("the user's own settings are kept byte for byte around lore's entry", () => {
    const toml = readFileSync(f(".codex", "config.toml"), "utf8");
    expect(toml.startsWith(CODEX_TOML)).toBe(true);
    expect(toml.slice(CODEX_TOML.length)).toBe(`\n[mcp_servers.lore]\ncommand = ${JSON.stringify(server.command)}\nargs = [${server.args.map((a) => JSON.stringify(a)).join(", ")}]\n`);
    const gemini = readFileSync(f(".gemini", "settings.json"), "utf8");
    expect(gemini).toContain('  // no usage statistics from tests\n  "privacy": { "usageStatisticsEnabled": false },\n  "mcpServers": {\n    "other": { "command": "true", "args": [] },\n    "lore": {');
    expect(readFileSync(f(".config", "opencode", "opencode.json"), "utf8")).toContain('  // a disabled server of the user\'s own\n  "mcp": {\n    "off": { "type": "local", "command": ["true"], "enabled": false },\n    "lore": {');
  });

  test("each agent's instructions file carries lore's block, after what the user wrote", () => {
    expect(readFileSync(f(".codex", "AGENTS.md"), "utf8")).toBe(`# My rules\n\nAlways run the tests.\n\n${BLOCK_BEGIN}\n${INSTRUCTIONS_TEXT}\n<!-- lore:end -->\n`);
    for (const file of [f(".gemini", "GEMINI.md"), f(".config", "opencode", "AGENTS.md")]) expect(readFileSync(file, "utf8")).toBe(`${BLOCK_BEGIN}\n${INSTRUCTIONS_TEXT}\n<!-- lore:end -->\n`);
  });

  test("lore doctor shows ✓ for each client's registration and instructions", () => {
    const r = h.lore(["doctor", "--json"]);
    const checks = new Map((JSON.parse(r.stdout).checks as { name: string; status: string }[]).map((c) => [c.name, c.status]));
    for (const name of ["claude mcp", "skill", "codex mcp", "codex instructions", "gemini mcp", "gemini instructions", "opencode mcp", "opencode instructions"]) expect([name, checks.get(name)]).toEqual([name, "ok"]);
  });

  test("a second setup changes nothing", () => {
    const after = h.snapshot(files);
    const r = h.lore(["setup"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Nothing to change: lore is set up.");
    expect(h.snapshot(files)).toEqual(after);
  });

  test("--uninstall puts every file back as it was, byte for byte, and the listings no longer show lore", () => {
    const r = h.lore(["setup", "--uninstall"]);
    expect(r.code).toBe(0);
    expect(h.snapshot(files)).toEqual(before);
    expect(JSON.parse(h.run("codex", ["mcp", "list", "--json"]).stdout).map((s: { name: string }) => s.name)).toEqual(["docs"]);
    expect(h.run("gemini", ["mcp", "list"]).stdout).not.toContain("lore");
    expect(h.run("claude", ["mcp", "get", "lore"]).code).not.toBe(0);
    expect(h.lore(["setup", "--uninstall"]).stdout).toContain("Nothing to remove.");
  });
});
