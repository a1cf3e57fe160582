/**
 * lore's commands that are not questions (index, daemon, mcp, serve…), each loaded only when used, and
 * the one way every error becomes a line and an exit code. main.ts runs a command from here without
 * loading the questions, their flags and renderers (~35 ms of CPU before lore index import starts).
 */
import { errorObject, isUsageError, type LoreError, toLoreError } from "../errors.ts";
import { runtime } from "../runtime/index.ts";
import { styleFor } from "./style.ts";

/** Commands that are not questions, loaded only when used (they pull in zod, the MCP SDK, hono). */
export const COMMANDS: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  daemon: async () => (await import("../daemon/command.ts")).daemonCommand,
  mcp: async () => (await import("../mcp/command.ts")).mcpCommand,
  serve: async () => (await import("../serve/command.ts")).serveCommand,
  setup: async () => (await import("../setup/command.ts")).setupCommand,
  doctor: async () => (await import("../setup/doctor-command.ts")).doctorCommand,
  report: async () => (await import("../report/command.ts")).reportCommand,
  index: async () => (await import("../portable/command.ts")).indexCommand,
  completion: async () => (await import("./completion.ts")).completionCommand,
  // Not in the help: Claude Code runs it, from the hook `lore setup --hook` installs.
  hook: async () => (await import("../setup/hook-command.ts")).hookCommand,
};

/** The exit status of a process killed by SIGPIPE, what git gives when its reader goes away. */
export const BROKEN_PIPE_EXIT = 141;

/** Whether writing failed because the reader closed the pipe (lore … | head): Bun says EPIPE, Deno BrokenPipe. */
export function isBrokenPipe(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown };
  return e?.code === "EPIPE" || e?.name === "BrokenPipe";
}

/** Prints an error as one line (and as JSON with --json); the exit status: 2 for a usage error, else 1. */
export async function printError(err: LoreError, json: boolean): Promise<number> {
  if (json) await runtime.write(1, JSON.stringify({ error: errorObject(err) }) + "\n");
  const s = await styleFor(2);
  await runtime.write(2, `${s.red("lore:")} ${err.message}${s.dim(` [${err.code}]`)}\n`);
  if (process.env.LORE_DEBUG === "1" && err.cause instanceof Error) await runtime.write(2, `${err.cause.stack}\n`);
  return isUsageError(err.code) ? 2 : 1;
}


/** Whether `name` is one of the commands (not a question). */
export function isCommand(name: string): boolean {
  return Object.hasOwn(COMMANDS, name);
}

/** Runs the command `name` with its arguments; its errors printed as every answer's are. */
export async function runCommand(name: string, rest: string[]): Promise<number> {
  try {
    return await (await COMMANDS[name]!())(rest);
  } catch (err) {
    if (isBrokenPipe(err)) return BROKEN_PIPE_EXIT;
    return await printError(toLoreError(err), rest.includes("--json"));
  }
}
