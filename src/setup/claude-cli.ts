/** Drives Claude Code's own `claude mcp` commands; lore edits Claude's state file only when claude fails or hangs (clients/claude-code.ts). */
import { findOnPath } from "../on-path.ts";
import { clientTimeout, runTool, type RunResult } from "./clients/cli.ts";

export type { RunResult };

/** The `claude` executable on the PATH, or null. */
export function findClaude(env: Record<string, string | undefined> = process.env): string | null {
  return findOnPath("claude", env);
}

/** `claude mcp get` starts the server to health-check it: seconds, so a minute before lore gives up on it. */
export function runClaude(claude: string, args: string[], timeoutMs = clientTimeout(60_000)): Promise<RunResult> {
  return runTool(claude, args, timeoutMs);
}

export interface ServerInfo {
  scope: string;
  /** The Status: line without its mark, e.g. "Connected", "Failed to connect". */
  status: string;
  connected: boolean;
  command: string;
  /** The Args: line as printed (space-joined). */
  args: string;
}

/** Reads `claude mcp get`'s human output; it exits 0 even for a server that fails to connect. */
export function parseGet(stdout: string): ServerInfo | null {
  const field = (name: string) => new RegExp(`^\\s*${name}:[ \\t]*(.*)$`, "m").exec(stdout)?.[1]?.trim();
  const command = field("Command");
  if (command === undefined) return null;
  const status = (field("Status") ?? "").replace(/^[^\p{L}]+/u, "");
  return { scope: field("Scope") ?? "", status, connected: /^connected/i.test(status), command, args: field("Args") ?? "" };
}

/** The server registered under `name`, or null; a failing `claude` throws with what it said. */
export async function getServer(claude: string, name: string): Promise<ServerInfo | null> {
  const r = await runClaude(claude, ["mcp", "get", name]);
  if (r.code !== 0) {
    if (/No MCP server/i.test(r.stdout + r.stderr)) return null;
    throw new Error(`claude mcp get ${name} failed: ${r.timedOut ? "it did not answer in time" : (r.stderr || r.stdout).trim()}`);
  }
  return parseGet(r.stdout);
}
