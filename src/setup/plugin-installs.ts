/**
 * Whether a client already has lore as a plugin or extension (Claude Code's and Codex's plugin
 * marketplaces, Gemini CLI's extensions), read from the client's own files: setup then does not
 * register lore a second time, and doctor says which way lore is installed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { claudeConfigDir } from "./claude-paths.ts";
import { codexHome, geminiDir } from "./clients/paths.ts";
import type { Check } from "./step.ts";

export interface PluginInstall {
  /** "plugin lore@lore-dev", "extension lore". */
  what: string;
  /** The client's file that says so. */
  file: string;
  /** The client's own command that takes it out. */
  remove: string;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

const loreIds = (table: unknown): string[] => (typeof table === "object" && table !== null ? Object.keys(table).filter((k) => /^lore@/.test(k)) : []);

/** Claude Code: an enabled `lore@…` in installed_plugins.json and in settings.json's enabledPlugins (user scope). */
function claude(): PluginInstall | null {
  const file = join(claudeConfigDir(), "plugins", "installed_plugins.json");
  const installed = loreIds((readJson(file) as { plugins?: unknown } | undefined)?.plugins);
  const enabled = (readJson(join(claudeConfigDir(), "settings.json")) as { enabledPlugins?: Record<string, unknown> } | undefined)?.enabledPlugins ?? {};
  const id = installed.find((i) => enabled[i] === true);
  return id ? { what: `plugin ${id}`, file, remove: `claude plugin uninstall ${id}` } : null;
}

/** Codex: a `[plugins."lore@…"]` table in config.toml that is not disabled. */
function codex(): PluginInstall | null {
  const file = join(codexHome(), "config.toml");
  let plugins: unknown;
  try {
    plugins = (parseToml(readFileSync(file, "utf8")) as { plugins?: unknown }).plugins;
  } catch {
    return null;
  }
  const id = loreIds(plugins).find((i) => (plugins as Record<string, { enabled?: unknown }>)[i]?.enabled !== false);
  return id ? { what: `plugin ${id}`, file, remove: `codex plugin remove ${id}` } : null;
}

/** Gemini CLI: its extensions folder has lore, installed or linked. */
function gemini(): PluginInstall | null {
  const file = join(geminiDir(), "extensions", "lore", ".gemini-extension-install.json");
  return existsSync(file) ? { what: "extension lore", file, remove: "gemini extensions uninstall lore" } : null;
}

const BY_CLIENT: Record<string, () => PluginInstall | null> = { claude, codex, gemini };

/** lore installed in this client through the client's own plugins, or null. */
export function pluginInstall(clientId: string): PluginInstall | null {
  return BY_CLIENT[clientId]?.() ?? null;
}

/** Doctor's finding for a client that has lore as a plugin; `registered`: lore setup's entry is there too. */
export function pluginCheck(clientId: string, p: PluginInstall, registered: boolean): Check[] {
  const checks: Check[] = [{ name: `${clientId} plugin`, status: "ok", message: `installed as the ${p.what} (${p.file}): it brings the MCP server and the instructions` }];
  if (registered) checks.push({ name: `${clientId} mcp`, status: "warn", message: "lore setup registered lore here too, so the agent starts two lore servers", fix: `lore setup --uninstall --client ${clientId}` });
  return checks;
}
