/**
 * Codex CLI: `[mcp_servers.lore]` in $CODEX_HOME/config.toml, and lore's block in its global
 * AGENTS.md (AGENTS.override.md when the user has one: Codex then reads only that). lore edits the
 * file itself rather than run `codex mcp add`: that rewrites every `[mcp_servers.*]` table,
 * dropping the user's comments and layout in them (codex-cli 0.171.0).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tomlTable } from "../edit/toml-table.ts";
import type { SelfCommand } from "../self-command.ts";
import type { Step } from "../step.ts";
import { findOnPath } from "../../on-path.ts";
import { clientTimeout, runTool, said } from "./cli.ts";
import { commandArgs, fileClient } from "./file-client.ts";
import { codexHome } from "./paths.ts";

const nonEmpty = (file: string) => {
  try {
    return readFileSync(file, "utf8").trim() !== "";
  } catch {
    return false;
  }
};

const entry = (self: SelfCommand) => ({ command: self.command, args: [...self.prefix, "mcp"] });

/** Asks Codex itself what it now reads for "lore". */
async function confirm(self: SelfCommand): Promise<Step | null> {
  const codex = findOnPath("codex");
  if (!codex) return null;
  const ms = clientTimeout(15_000);
  const r = await runTool(codex, ["mcp", "get", "lore", "--json"], ms);
  if (r.code !== 0) return { status: "warn", message: `codex mcp get lore did not confirm the entry (${said(r, ms / 1000)}); the config file is written all the same` };
  try {
    const t = JSON.parse(r.stdout).transport;
    const want = entry(self);
    if (t?.command === want.command && JSON.stringify(t?.args) === JSON.stringify(want.args)) return { status: "ok", message: "Codex reads it: codex mcp get lore shows this lore" };
    return { status: "warn", message: `codex mcp get lore shows ${t?.command} ${(t?.args ?? []).join(" ")}: another config may take precedence (codex -c, a profile)` };
  } catch {
    return { status: "warn", message: "codex mcp get lore --json printed something lore cannot read; the config file is written all the same" };
  }
}

export const codex = fileClient({
  id: "codex",
  name: "Codex CLI",
  cli: ["codex"],
  dir: () => codexHome(),
  config: () => ({ file: join(codexHome(), "config.toml"), format: tomlTable("mcp_servers") }),
  entry,
  commandOf: commandArgs,
  instructions() {
    const override = join(codexHome(), "AGENTS.override.md");
    return nonEmpty(override) ? override : join(codexHome(), "AGENTS.md");
  },
  confirm,
});
