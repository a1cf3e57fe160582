/** Drives Claude Code's own `claude mcp` commands: lore never edits Claude's state file itself. */
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `claude` executable on the PATH, or null. */
export function findClaude(env: Record<string, string | undefined> = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "claude");
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {}
  }
  return null;
}

export function runClaude(claude: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(claude, args, { stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => resolve({ code: -1, stdout, stderr: stderr + err.message }));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
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
    throw new Error(`claude mcp get ${name} failed: ${(r.stderr || r.stdout).trim()}`);
  }
  return parseGet(r.stdout);
}
