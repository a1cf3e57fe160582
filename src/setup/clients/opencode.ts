/**
 * opencode: `mcp.lore` (type local, the command as one list) in its global config,
 * $XDG_CONFIG_HOME/opencode/opencode.json (or opencode.jsonc, whichever exists, as opencode's own
 * `mcp add` picks), and lore's block in the AGENTS.md beside it.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { jsonEntry } from "../edit/json-entry.ts";
import { markedBlock } from "../edit/marked-block.ts";
import type { SelfCommand } from "../self-command.ts";
import type { Step } from "../step.ts";
import { fileClient } from "./file-client.ts";
import { opencodeDir } from "./paths.ts";

function configFile(): string {
  const [json, jsonc] = ["opencode.json", "opencode.jsonc"].map((f) => join(opencodeDir(), f));
  return existsSync(json!) || !existsSync(jsonc!) ? json! : jsonc!;
}

const agentsFile = () => join(opencodeDir(), "AGENTS.md");

/** opencode reads ~/.claude/CLAUDE.md only while its own AGENTS.md does not exist: say so when lore's block made it. */
function notes(): Step[] {
  const claudeMd = join(homedir(), ".claude", "CLAUDE.md");
  if (process.env.OPENCODE_DISABLE_CLAUDE_CODE || process.env.OPENCODE_DISABLE_CLAUDE_CODE_PROMPT || !existsSync(claudeMd)) return [];
  let text = "";
  try {
    text = readFileSync(agentsFile(), "utf8");
  } catch {}
  if (markedBlock.remove(agentsFile(), text).trim() !== "") return [];
  return [{ status: "warn", message: `opencode now reads ${agentsFile()} instead of ${claudeMd} (it reads only the first that exists); copy what it should keep from ${claudeMd} into it` }];
}

export const opencode = fileClient({
  id: "opencode",
  name: "opencode",
  cli: ["opencode"],
  dir: opencodeDir,
  config: () => ({ file: configFile(), format: jsonEntry(["mcp"]) }),
  entry: (self: SelfCommand) => ({ type: "local", command: [self.command, ...self.prefix, "mcp"], enabled: true }),
  commandOf: (e) => {
    const command = (e as { command?: unknown } | null)?.command;
    return Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string") ? command : null;
  },
  instructions: agentsFile,
  notes,
});
