/** `lore mcp`: serve the questions to an agent over stdio until it hangs up. */
import { parseCommandArgv } from "../cli/argv.ts";
import { callQuestion } from "../client/call.ts";
import { maxBytes } from "./cap.ts";
import { RepoScope } from "./repos.ts";
import { serveStdio } from "./stdio.ts";
import { mcpDeadline } from "./deadline.ts";

const HELP = `Usage: lore mcp [--no-daemon]

Serves lore's questions as MCP tools (lore_blame, lore_history, ...) on stdin/stdout.
The repository is the one containing the folder it starts in (or the client's first
MCP root); tools take "repo", or absolute paths, for another worktree of it, or another
repository under that folder, under a root or listed in LORE_MCP_ALLOWED_REPOS (colon-separated).
Answers are cut to LORE_MCP_MAX_BYTES of JSON (default 16384). Register it with
Claude Code by running: lore setup`;

const log = (line: string) => void process.stderr.write(line.endsWith("\n") ? line : line + "\n");

/** stdout belongs to the protocol: anything printed by accident goes to stderr instead. */
function guardStdout(): void {
  console.log = console.info = console.debug = console.warn = (...args: unknown[]) => log(args.map(String).join(" "));
  // A client that vanished makes writes fail; there is no one left to serve.
  process.stdout.on("error", () => process.exit(0));
  process.on("uncaughtException", (err) => log(`lore mcp: ${err instanceof Error ? err.message : String(err)}`));
  process.on("unhandledRejection", (err) => log(`lore mcp: ${err instanceof Error ? err.message : String(err)}`));
}

export async function mcpCommand(argv: string[]): Promise<number> {
  const values = parseCommandArgv(argv, { "no-daemon": { type: "boolean" }, help: { type: "boolean", short: "h" } }, "mcp").values;
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  guardStdout();
  await serveStdio({
    scope: new RepoScope(process.cwd()),
    call: callQuestion,
    noDaemon: values["no-daemon"] === true || process.env.LORE_NO_DAEMON === "1",
    maxBytes: maxBytes(),
    log,
    deadlineMs: mcpDeadline(process.env, log),
  });
  // A daemon connection or a background index job must not keep a hung-up server alive.
  setTimeout(() => process.exit(0), 500).unref();
  return 0;
}
