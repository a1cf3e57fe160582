/** The lore binary: parse the subcommand, dispatch, one place that prints errors and picks the exit code. */
import { runCli } from "./cli/run.ts";

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
