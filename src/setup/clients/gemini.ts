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
import { commandArgs, commandEntry, fileClient } from "./file-client.ts";
import { geminiDir } from "./paths.ts";

const settings = () => join(geminiDir(), "settings.json");

/** GEMINI.md, unless settings.json's context.fileName names another file (the first, when it lists several). */
function contextFile(): string {
  let name: unknown;
  try {
    name = parse(readFileSync(settings(), "utf8"))?.context?.fileName;
  } catch {}
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
});
