/** The lore binary: parse the subcommand, dispatch, one place that prints errors and picks the exit code. */
import { isCommand, runCommand } from "./cli/commands.ts";

const args = process.argv.slice(2);
// A command (lore index, daemon, mcp…) starts without loading the questions; a question, help or version goes through run.ts.
const code = args[0] !== undefined && isCommand(args[0]) ? await runCommand(args[0], args.slice(1)) : await (await import("./cli/run.ts")).runCli(args);
process.exitCode = code;
