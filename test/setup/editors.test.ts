import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { claudeDesktopDir, vscodeUserDir, zedDir } from "../../src/setup/clients/paths.ts";
import { VERSION } from "../../src/version.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { AgentHome } from "./agent-env.ts";
import { schemaErrors } from "./schema-check.ts";

// Cursor, VS Code, Claude Desktop and Zed cannot be installed here: the written files are checked
// against each client's documented schema (fixtures/, each naming its source).
let h: AgentHome;
const f = (...p: string[]) => join(h.home, ...p);
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dir, "fixtures", name), "utf8"));
let files: Record<string, string>;
let before: Map<string, string | null>;
/** What setup registers: the lore that runs it (the test binary, or bun and src/main.ts from source). */
const lore = () => loreCommand(["mcp"]);

const VSCODE = `{
\t// my servers
\t"inputs": [{ "type": "promptString", "id": "token", "password": true }],
\t"servers": {
\t\t"github": { "type": "stdio", "command": "gh-mcp", "env": { "TOKEN": "\${input:token}" } }
\t}
}
`;
const ZED = `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "postgres": { "settings": { "database_url": "postgresql://localhost/db" } }, // from an extension
  },
}
`;
const DESKTOP = `{
    "mcpServers": {
        "files": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
        }
    },
    "globalShortcut": "Ctrl+Space"
}`;

beforeAll(() => {
  h = new AgentHome([]);
  files = {
    cursor: f(".cursor", "mcp.json"),
    vscode: f(".config", "Code", "User", "mcp.json"),
    desktop: f(".config", "Claude", "claude_desktop_config.json"),
    zed: f(".config", "zed", "settings.json"),
  };
  for (const [name, text] of [["vscode", VSCODE], ["zed", ZED], ["desktop", DESKTOP]] as const) {
    mkdirSync(join(files[name]!, ".."), { recursive: true });
    writeFileSync(files[name]!, text);
  }
  mkdirSync(f(".cursor"));
  before = h.snapshot(Object.values(files));
});
afterAll(() => h.cleanup());

describe("lore setup for Cursor, VS Code, Claude Desktop and Zed", () => {
  test("each client is found by its config folder, and --dry-run changes nothing", () => {
    const r = h.lore(["setup", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Cursor (${f(".cursor")} exists), VS Code (${f(".config", "Code", "User")} exists), Claude Desktop (${f(".config", "Claude")} exists), Zed (${f(".config", "zed")} exists)`);
    expect(r.stdout).toContain(`would add MCP server "lore" in ${files.cursor}`);
    expect(h.snapshot(Object.values(files))).toEqual(before);
  });

  test("setup writes each file in the client's documented shape, keeping the user's comments and entries", () => {
    const r = h.lore(["setup", "--client", "cursor,vscode,claude-desktop,zed"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain("Cursor reads no global rules file");
    const docs = Object.fromEntries(Object.entries(files).map(([k, file]) => [k, parse(readFileSync(file, "utf8"), [], { allowTrailingComma: true })]));
    expect(schemaErrors(fixture("cursor-mcp.schema.json"), docs.cursor)).toEqual([]);
    expect(schemaErrors(fixture("vscode-mcp.schema.json"), docs.vscode)).toEqual([]);
    expect(schemaErrors(fixture("claude-desktop.schema.json"), docs.desktop)).toEqual([]);
    expect(schemaErrors(fixture("zed-settings.schema.json"), docs.zed)).toEqual([]);
    expect(docs.cursor.mcpServers.lore).toEqual(lore());
    expect(docs.vscode.servers.lore).toEqual({ type: "stdio", ...lore() });
    expect(docs.desktop.mcpServers.lore).toEqual(lore());
    expect(docs.zed.context_servers.lore).toEqual(lore());
    // The user's entries and layout: tabs stay tabs, the trailing commas and comments stay.
    expect(readFileSync(files.vscode!, "utf8")).toContain('\t\t"github": { "type": "stdio", "command": "gh-mcp", "env": { "TOKEN": "${input:token}" } },\n\t\t"lore": {\n\t\t\t"type": "stdio",');
    // A comment after the user's last entry stays on its line; lore's entry goes below it.
    expect(readFileSync(files.zed!, "utf8")).toContain('"postgres": { "settings": { "database_url": "postgresql://localhost/db" } }, // from an extension\n    "lore": {');
    expect(readFileSync(files.zed!, "utf8")).toStartWith('// Zed settings\n{\n  "theme": "One Dark",\n');
    expect(docs.desktop.globalShortcut).toBe("Ctrl+Space");
  });

  test("a schema fixture rejects what a client would not read", () => {
    expect(schemaErrors(fixture("vscode-mcp.schema.json"), { servers: { lore: lore() } })).toEqual(['$.servers.lore: "type" is missing']);
    expect(schemaErrors(fixture("zed-settings.schema.json"), { context_servers: { lore: { command: { path: "/x" } } } }).length).toBe(1);
  });

  test("a second setup changes nothing", () => {
    const after = h.snapshot(Object.values(files));
    const r = h.lore(["setup"]);
    expect(r.stdout).toContain("Nothing to change: lore is set up.");
    expect(h.snapshot(Object.values(files))).toEqual(after);
  });

  test("--uninstall restores every file byte for byte, and removes the one setup created", () => {
    const r = h.lore(["setup", "--uninstall", "--client", "cursor,vscode,claude-desktop,zed"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`removed MCP server "lore" from ${files.cursor} (and the file, which setup created)`);
    expect(h.snapshot(Object.values(files))).toEqual(before);
  });

  test("doctor: a registered command that is gone fails, one of another lore version warns, each with the fix", () => {
    const old = join(h.dir, "old-lore");
    writeFileSync(old, '#!/bin/sh\necho "lore 0.0.9 (abc123)"\n', { mode: 0o755 });
    writeFileSync(files.cursor!, JSON.stringify({ mcpServers: { lore: { command: old, args: ["mcp"] } } }));
    writeFileSync(files.desktop!, JSON.stringify({ mcpServers: { lore: { command: join(h.dir, "gone"), args: ["mcp"] } } }));
    const checks = new Map((JSON.parse(h.lore(["doctor", "--json"]).stdout).checks as { name: string; status: string; message: string; fix?: string }[]).map((c) => [c.name, c]));
    expect(checks.get("cursor mcp")).toEqual({ name: "cursor mcp", status: "warn", message: `registered in ${files.cursor}, but runs ${old} mcp (lore 0.0.9), not this lore ${VERSION}`, fix: "lore setup --client cursor" });
    expect(checks.get("claude-desktop mcp")).toMatchObject({ status: "fail", message: `registered in ${files.desktop}, but its command ${join(h.dir, "gone")} no longer exists`, fix: "lore setup --client claude-desktop" });
    expect(h.lore(["setup", "--client", "cursor,claude-desktop"]).stdout).toContain(`+ updated MCP server "lore" in ${files.cursor}`);
    const fixed = new Map((JSON.parse(h.lore(["doctor", "--json"]).stdout).checks as { name: string; status: string }[]).map((c) => [c.name, c.status]));
    expect([fixed.get("cursor mcp"), fixed.get("claude-desktop mcp")]).toEqual(["ok", "ok"]);
  });

  test("opencode: when lore's block creates its global AGENTS.md, setup says opencode stops reading ~/.claude/CLAUDE.md", () => {
    mkdirSync(f(".claude"), { recursive: true });
    writeFileSync(f(".claude", "CLAUDE.md"), "# My Claude rules\n");
    const r = h.lore(["setup", "--client", "opencode"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`! opencode now reads ${f(".config", "opencode", "AGENTS.md")} instead of ${f(".claude", "CLAUDE.md")}`);
    expect(h.lore(["setup", "--uninstall", "--client", "opencode"]).code).toBe(0);
  });

  test("Gemini CLI: setup says it starts lore only in folders you trust, unless your settings turn folder trust off", () => {
    const trust = "Gemini CLI starts MCP servers only in folders you trust";
    const first = h.lore(["setup", "--client", "gemini"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`✓ ${trust}`);
    expect(h.lore(["setup", "--uninstall", "--client", "gemini"]).code).toBe(0);
    mkdirSync(f(".gemini"), { recursive: true });
    const settings = `{\n  // mine\n  "security": { "folderTrust": { "enabled": false } }\n}\n`;
    writeFileSync(f(".gemini", "settings.json"), settings);
    const off = h.lore(["setup", "--client", "gemini"]);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain(trust);
    expect(h.lore(["setup", "--uninstall", "--client", "gemini"]).code).toBe(0);
    expect(readFileSync(f(".gemini", "settings.json"), "utf8")).toBe(settings);
  });

  test("the user folders are where each OS keeps them", () => {
    expect(vscodeUserDir({ APPDATA: "C:\\Users\\a\\AppData\\Roaming" }, "win32")).toBe(join("C:\\Users\\a\\AppData\\Roaming", "Code", "User"));
    expect(vscodeUserDir({}, "darwin")).toEndWith(join("Library", "Application Support", "Code", "User"));
    expect(claudeDesktopDir({}, "darwin")).toEndWith(join("Library", "Application Support", "Claude"));
    expect(claudeDesktopDir({ XDG_CONFIG_HOME: "/x" }, "linux")).toBe(join("/x", "Claude"));
    expect(zedDir({}, "darwin")).toEndWith(join(".config", "zed"));
    expect(zedDir({ APPDATA: "/a" }, "win32")).toBe(join("/a", "Zed"));
  });
});
