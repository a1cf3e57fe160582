/**
 * The clients lore can only reach through their config files: Cursor (~/.cursor/mcp.json),
 * VS Code's Copilot agent (its user mcp.json: `servers`, `"type": "stdio"`), Claude Desktop
 * (claude_desktop_config.json) and Zed (its settings' `context_servers`). None reads a global
 * instructions file lore can write; setup says so.
 */
import { join } from "node:path";
import { jsonEntry } from "../edit/json-entry.ts";
import { commandArgs, commandEntry as plain, fileClient } from "./file-client.ts";
import { claudeDesktopDir, cursorDir, vscodeUserDir, zedDir } from "./paths.ts";

export const cursor = fileClient({
  id: "cursor",
  name: "Cursor",
  cli: ["cursor", "cursor-agent"],
  dir: cursorDir,
  config: () => ({ file: join(cursorDir(), "mcp.json"), format: jsonEntry(["mcpServers"]) }),
  entry: plain,
  commandOf: commandArgs,
  noInstructions: "Cursor reads no global rules file (its User Rules live in its settings): to tell its agent when to use lore, paste the block in docs/agents.md into Cursor Settings → Rules → User Rules",
});

export const vscode = fileClient({
  id: "vscode",
  name: "VS Code",
  cli: ["code"],
  dir: vscodeUserDir,
  config: () => ({ file: join(vscodeUserDir(), "mcp.json"), format: jsonEntry(["servers"]) }),
  entry: (self) => ({ type: "stdio", ...plain(self) }),
  commandOf: commandArgs,
  noInstructions: "VS Code: lore writes no instructions file for Copilot; its agent picks lore's tools by their descriptions",
});

export const claudeDesktop = fileClient({
  id: "claude-desktop",
  name: "Claude Desktop",
  dir: claudeDesktopDir,
  config: () => ({ file: join(claudeDesktopDir(), "claude_desktop_config.json"), format: jsonEntry(["mcpServers"]) }),
  entry: plain,
  commandOf: commandArgs,
  noInstructions: "Claude Desktop has no instructions file; restart it to load lore's tools",
});

export const zed = fileClient({
  id: "zed",
  name: "Zed",
  cli: ["zed", "zeditor"],
  dir: zedDir,
  config: () => ({ file: join(zedDir(), "settings.json"), format: jsonEntry(["context_servers"]) }),
  entry: plain,
  commandOf: commandArgs,
  noInstructions: "Zed: lore writes no rules for its agent (Zed keeps its rules library in its own database)",
});
