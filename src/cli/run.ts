/** The command line: dispatch to a question or a command, print the answer, map errors to one line and an exit code. */
import { isUsageError, LoreError, errorObject, toLoreError } from "../errors.ts";
import { callQuestion } from "../client/call.ts";
import { findQuery } from "../queries/index.ts";
import { COMMIT, VERSION } from "../version.ts";
import { parseCommand } from "./flags.ts";
import { mainHelp, questionHelp } from "./help.ts";
import { render } from "./render/index.ts";
import { styleFor } from "./style.ts";

/** Commands that are not questions, loaded only when used (they pull in zod, the MCP SDK, hono). */
const COMMANDS: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  daemon: async () => (await import("../daemon/command.ts")).daemonCommand,
  mcp: async () => (await import("../mcp/command.ts")).mcpCommand,
  setup: async () => (await import("../setup/command.ts")).setupCommand,
  doctor: async () => (await import("../setup/doctor-command.ts")).doctorCommand,
  // Not in the help: Claude Code runs it, from the hook `lore setup --hook` installs.
  hook: async () => (await import("../setup/hook-command.ts")).hookCommand,
};

function printError(err: LoreError, json: boolean): number {
  if (json) process.stdout.write(JSON.stringify({ error: errorObject(err) }) + "\n");
  const s = styleFor(process.stderr);
  process.stderr.write(`${s.red("lore:")} ${err.message}${s.dim(` [${err.code}]`)}\n`);
  if (process.env.LORE_DEBUG === "1" && err.cause instanceof Error) process.stderr.write(`${err.cause.stack}\n`);
  return isUsageError(err.code) ? 2 : 1;
}

async function runQuestion(name: string, argv: string[]): Promise<number> {
  const def = findQuery(name)!;
  const json = argv.includes("--json");
  try {
    const cmd = parseCommand(def, argv, process.cwd());
    if (cmd.help) {
      process.stdout.write(questionHelp(def) + "\n");
      return 0;
    }
    const result = await callQuestion(name, cmd.input, { cwd: process.cwd(), noDaemon: cmd.noDaemon });
    if (cmd.json) process.stdout.write(JSON.stringify(result) + "\n");
    else process.stdout.write(render(name, result, styleFor(process.stdout)) + "\n");
    return 0;
  } catch (err) {
    return printError(toLoreError(err), json);
  }
}

export async function runCli(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    const q = rest[0] ? findQuery(rest[0]) : undefined;
    process.stdout.write((q ? questionHelp(q) : mainHelp()) + "\n");
    return 0;
  }
  if (first === "--version" || first === "-v" || first === "version") {
    process.stdout.write(`lore ${VERSION} (${COMMIT})\n`);
    return 0;
  }
  if (findQuery(first)) return runQuestion(first, rest);
  const command = COMMANDS[first];
  if (command) {
    try {
      return await (await command())(rest);
    } catch (err) {
      return printError(toLoreError(err), rest.includes("--json"));
    }
  }
  return printError(new LoreError("UNKNOWN_QUESTION", `lore has no command "${first}"; run lore --help for the list.`), argv.includes("--json"));
}
