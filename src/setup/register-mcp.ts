/** Registers `lore mcp` with Claude Code at user scope: skip when identical, replace when different, add when absent. */
import { readFileSync } from "node:fs";
import { claudeStateFile } from "./claude-paths.ts";
import { getServer, runClaude, type ServerInfo } from "./claude-cli.ts";
import type { SelfCommand } from "./self-command.ts";
import type { Step } from "./step.ts";

export const SERVER_NAME = "lore";

/** `alwaysLoad`: Claude Code otherwise defers MCP tools until the model searches for them, and agents then rarely use them. */
export function serverConfig(self: SelfCommand): { type: "stdio"; command: string; args: string[]; alwaysLoad: true } {
  return { type: "stdio", command: self.command, args: [...self.prefix, "mcp"], alwaysLoad: true };
}

/** The one-line config for MCP clients other than Claude Code. */
export function otherClientsJson(self: SelfCommand): string {
  const { command, args } = serverConfig(self);
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: { type: "stdio", command, args } } });
}

/** `claude mcp get` does not print alwaysLoad; Claude's state file does (read, never written). */
function userEntryAlwaysLoads(): boolean | undefined {
  try {
    const state = JSON.parse(readFileSync(claudeStateFile(), "utf8")) as { mcpServers?: Record<string, { alwaysLoad?: unknown }> };
    const entry = state.mcpServers?.[SERVER_NAME];
    return entry ? entry.alwaysLoad === true : undefined;
  } catch {
    return undefined;
  }
}

function identical(found: ServerInfo, self: SelfCommand): boolean {
  const want = serverConfig(self);
  return /user/i.test(found.scope) && found.command === want.command && found.args === want.args.join(" ") && userEntryAlwaysLoads() !== false;
}

function shown(found: ServerInfo): string {
  return `${found.command} ${found.args}`.trim();
}

function describe(self: SelfCommand): string {
  return [self.command, ...serverConfig(self).args].join(" ");
}

function connection(after: ServerInfo | null): Step {
  if (after?.connected) return { status: "ok", message: `Claude Code connects to it: ✔ ${after.status}` };
  return { status: "fail", message: `Claude Code cannot start it: ${after?.status || "not listed"}. Run lore doctor, or claude mcp get lore for details.` };
}

export async function registerMcp(claude: string, self: SelfCommand, dryRun: boolean): Promise<Step[]> {
  const found = await getServer(claude, SERVER_NAME);
  const json = JSON.stringify(serverConfig(self));
  if (found && identical(found, self)) {
    const steps: Step[] = [{ status: "unchanged", message: `MCP server "lore" already registered with Claude Code: ${describe(self)}` }];
    // `claude mcp get` just health-checked it: no need to ask again.
    if (!dryRun) steps.push(connection(found));
    return steps;
  }
  const steps: Step[] = [];
  const ours = found !== null && /user/i.test(found.scope);
  // A "lore" in another scope (local, project) is the user's own: left alone, but said.
  if (found && !ours) steps.push({ status: "warn", message: `a "lore" server is also configured in ${found.scope}; it may take precedence over the user-scope one` });
  if (dryRun) {
    steps.push({ status: "changed", message: ours ? `would replace MCP server "lore" (${shown(found!)}) with ${describe(self)}` : `would run: claude mcp add-json -s user lore '${json}'` });
    return steps;
  }
  if (ours) {
    const r = await runClaude(claude, ["mcp", "remove", SERVER_NAME, "-s", "user"]);
    if (r.code !== 0) return [...steps, { status: "fail", message: `claude mcp remove lore -s user failed: ${(r.stderr || r.stdout).trim()}` }];
    steps.push({ status: "changed", message: `removed the old MCP server "lore" (${shown(found!)})` });
  }
  const r = await runClaude(claude, ["mcp", "add-json", "-s", "user", SERVER_NAME, json]);
  if (r.code !== 0) return [...steps, { status: "fail", message: `claude mcp add-json failed: ${(r.stderr || r.stdout).trim()}` }];
  steps.push({ status: "changed", message: `registered MCP server "lore" with Claude Code (user scope): ${describe(self)}` });
  steps.push(connection(await getServer(claude, SERVER_NAME)));
  return steps;
}

export async function unregisterMcp(claude: string, dryRun: boolean): Promise<Step[]> {
  const found = await getServer(claude, SERVER_NAME);
  if (!found || !/user/i.test(found.scope)) return [{ status: "unchanged", message: `no user-scope MCP server "lore" registered with Claude Code` }];
  if (dryRun) return [{ status: "changed", message: "would run: claude mcp remove lore -s user" }];
  const r = await runClaude(claude, ["mcp", "remove", SERVER_NAME, "-s", "user"]);
  if (r.code !== 0) return [{ status: "fail", message: `claude mcp remove lore -s user failed: ${(r.stderr || r.stdout).trim()}` }];
  return [{ status: "changed", message: `removed MCP server "lore" from Claude Code (user scope)` }];
}
