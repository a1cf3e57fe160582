/**
 * Claude Code: its own `claude mcp add-json -s user`, the routing skill, and (with --hook) the
 * PreToolUse hooks. When `claude` fails or hangs, lore writes its entry into Claude Code's own
 * file (~/.claude.json's `mcpServers`) instead, the one place `claude mcp add -s user` writes.
 */
import { existsSync } from "node:fs";
import { claudeConfigDir, claudeStateFile } from "../claude-paths.ts";
import { findClaude } from "../claude-cli.ts";
import { checkClaude, checkHook, checkSkill } from "../doctor-checks.ts";
import { jsonEntry } from "../edit/json-entry.ts";
import { removeEntry, setEntry, type Target } from "../edit/apply.ts";
import { installHook, uninstallHook } from "../hook-settings.ts";
import { registerMcp, serverConfig, unregisterMcp } from "../register-mcp.ts";
import { commandLine } from "../self-command.ts";
import { installSkill, uninstallSkill } from "../skill.ts";
import type { Step } from "../step.ts";
import type { Client } from "./client.ts";

const stateTarget = (): Target => ({ file: claudeStateFile(), format: jsonEntry(["mcpServers"]), label: `MCP server "lore"` });

const gaveUp = (err: unknown): Step => ({ status: "warn", message: `${err instanceof Error ? err.message : String(err)}; lore edits Claude Code's ${claudeStateFile()} instead` });

export const claudeCode: Client = {
  id: "claude",
  name: "Claude Code",
  detect() {
    if (findClaude()) return "claude on the PATH";
    return existsSync(claudeConfigDir()) ? `${claudeConfigDir()} exists` : null;
  },
  async setup({ self, dryRun, hook }) {
    const claude = findClaude();
    const steps: Step[] = [];
    if (!claude)
      steps.push({ status: "fail", message: "Claude Code's claude command is not on the PATH, so lore could not register itself. Install Claude Code (npm install -g @anthropic-ai/claude-code) and run lore setup again." });
    else {
      try {
        steps.push(...(await registerMcp(claude, self, dryRun)));
      } catch (err) {
        steps.push(gaveUp(err), setEntry(stateTarget(), serverConfig(self), dryRun));
      }
    }
    // The skill only means something to Claude Code: install it where Claude Code is or has been.
    if (claude || existsSync(claudeConfigDir())) steps.push(installSkill(dryRun));
    if (hook) steps.push(installHook(commandLine(self, ["hook", "pretooluse"]), dryRun, commandLine(self, ["hook", "snapshot"])));
    return steps;
  },
  async uninstall(dryRun) {
    const claude = findClaude();
    const steps: Step[] = [];
    if (!claude) steps.push(removeEntry(stateTarget(), dryRun));
    else {
      try {
        steps.push(...(await unregisterMcp(claude, dryRun)));
      } catch (err) {
        steps.push(gaveUp(err), removeEntry(stateTarget(), dryRun));
      }
    }
    steps.push(uninstallSkill(dryRun), uninstallHook(dryRun));
    return steps;
  },
  async checks() {
    return [await checkClaude(), checkSkill(), checkHook()];
  },
};
