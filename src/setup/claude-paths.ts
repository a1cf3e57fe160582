/** Where Claude Code keeps what lore installs: its config folder ($CLAUDE_CONFIG_DIR or ~/.claude), the skill, settings.json. */
import { homedir } from "node:os";
import { join } from "node:path";

export function claudeConfigDir(env: Record<string, string | undefined> = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
}

/** Claude Code reads user skills from <config dir>/skills, also when CLAUDE_CONFIG_DIR moves the config dir. */
export function skillFile(): string {
  return join(claudeConfigDir(), "skills", "lore", "SKILL.md");
}

export function settingsFile(): string {
  return join(claudeConfigDir(), "settings.json");
}

/** Claude Code's own state file, where `claude mcp add -s user` writes: read only, to see what `mcp get` does not print. */
export function claudeStateFile(env: Record<string, string | undefined> = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, ".claude.json") : join(homedir(), ".claude.json");
}
