/**
 * Gemini CLI: `mcpServers.lore` in ~/.gemini/settings.json (JSON with comments), and lore's block
 * in its global context file, GEMINI.md (or the name its `context.fileName` setting gives). lore
 * edits the file itself rather than run `gemini mcp add -s user`: that re-indents every other
 * server's entry (gemini-cli 0.61.0).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { jsonEntry } from "../edit/json-entry.ts";
import type { Step } from "../step.ts";
import { commandArgs, commandEntry, fileClient } from "./file-client.ts";
import { geminiTrustCheck } from "./gemini-trust.ts";
import { geminiDir } from "./paths.ts";

const settings = () => join(geminiDir(), "settings.json");

/** The user's settings.json as Gemini reads it (comments allowed), or undefined. */
function userSettings(): { context?: { fileName?: unknown }; security?: { folderTrust?: { enabled?: unknown } } } | undefined {
  try {
    return parse(readFileSync(settings(), "utf8"));
  } catch {
    return undefined;
  }
}

/** Gemini CLI 0.61 starts no MCP server in a folder the user has not trusted (its mcp list says Disabled there). */
function notes(): Step[] {
  if (userSettings()?.security?.folderTrust?.enabled === false) return [];
  return [{ status: "ok", message: "Gemini CLI starts MCP servers only in folders you trust: it asks the first time you run gemini in a folder (/permissions changes it)" }];
}

/** GEMINI.md, unless settings.json's context.fileName names another file (the first, when it lists several). */
function contextFile(): string {
  const name: unknown = userSettings()?.context?.fileName;
  const first = Array.isArray(name) ? name[0] : name;
  return join(geminiDir(), typeof first === "string" && first && !first.includes("/") && !first.includes("\\") ? first : "GEMINI.md");
}

export const gemini = fileClient({
  id: "gemini",
  name: "Gemini CLI",
  cli: ["gemini"],
  dir: geminiDir,
  config: () => ({ file: settings(), format: jsonEntry(["mcpServers"]) }),
  entry: commandEntry,
  commandOf: commandArgs,
  instructions: contextFile,
  notes,
  // doctor runs where the person works: the folder gemini would be started in.
  moreChecks: () => [geminiTrustCheck(process.cwd(), userSettings())],
});
