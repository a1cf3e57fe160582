/** `lore setup`: register lore with Claude Code, install the routing skill and (opt-in) the git hook; idempotent, with --dry-run and --uninstall. */
import { existsSync } from "node:fs";
import { parseCommandArgv } from "../cli/argv.ts";
import { claudeConfigDir } from "./claude-paths.ts";
import { findClaude } from "./claude-cli.ts";
import { installHook, uninstallHook } from "./hook-settings.ts";
import { otherClientsJson, registerMcp, unregisterMcp } from "./register-mcp.ts";
import { commandLine, selfCommand } from "./self-command.ts";
import { installSkill, uninstallSkill } from "./skill.ts";
import { formatStep, type Step } from "./step.ts";

const HELP = `Usage: lore setup [--hook] [--dry-run] [--uninstall]

Registers lore's MCP server with Claude Code (claude mcp add-json -s user) and
installs a skill that tells the agent which lore tool answers which question.
  --hook       also add PreToolUse hooks: one points git blame/log/show at lore, one
               snapshots the work tree before each Edit/Write (lore changes, lore restore)
  --dry-run    say what would change, change nothing
  --uninstall  remove what setup added (the MCP server, the skill, the hook)
Claude Code's folder is $CLAUDE_CONFIG_DIR, or ~/.claude.`;

function flags(argv: string[]) {
  return parseCommandArgv(argv, { hook: { type: "boolean" }, "dry-run": { type: "boolean" }, uninstall: { type: "boolean" }, help: { type: "boolean", short: "h" } }, "setup").values;
}

export async function setupCommand(argv: string[]): Promise<number> {
  const f = flags(argv);
  if (f.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  const dryRun = f["dry-run"] === true;
  const self = selfCommand();
  const claude = findClaude();
  const print = (step: Step) => process.stdout.write(formatStep(step) + "\n");
  const steps: Step[] = [];
  const run = (more: Step | Step[]) => {
    for (const s of [more].flat()) {
      steps.push(s);
      print(s);
    }
  };
  if (dryRun) process.stdout.write("Dry run: nothing will be changed.\n");

  if (f.uninstall) {
    if (claude) run(await unregisterMcp(claude, dryRun));
    else run({ status: "warn", message: "claude is not on the PATH: the MCP registration, if any, was left as it is" });
    run(uninstallSkill(dryRun));
    run(uninstallHook(dryRun));
  } else {
    if (self.fromSource)
      process.stdout.write(`Running from source, so there is no single lore binary: registering ${commandLine(self, ["mcp"])}. (npm run build makes dist/lore.)\n`);
    if (claude) run(await registerMcp(claude, self, dryRun));
    else {
      run({ status: "fail", message: "Claude Code's claude command is not on the PATH, so lore could not register itself. Install Claude Code (npm install -g @anthropic-ai/claude-code) and run lore setup again." });
      process.stdout.write(`For other MCP clients, add this server to their config:\n${otherClientsJson(self)}\n`);
    }
    // The skill only means something to Claude Code: install it where Claude Code is or has been.
    if (claude || existsSync(claudeConfigDir())) run(installSkill(dryRun));
    if (f.hook) run(installHook(commandLine(self, ["hook", "pretooluse"]), dryRun, commandLine(self, ["hook", "snapshot"])));
  }

  const changed = steps.filter((s) => s.status === "changed").length;
  if (!dryRun) process.stdout.write(changed === 0 ? (f.uninstall ? "Nothing to remove.\n" : "Nothing to change: lore is set up.\n") : `${changed} change${changed === 1 ? "" : "s"} made.\n`);
  return steps.some((s) => s.status === "fail") ? 1 : 0;
}
