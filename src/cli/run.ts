/** The command line: dispatch to a question or a command, print the answer, map errors to one line and an exit code. */
import { LoreError, toLoreError } from "../errors.ts";
import { askProgress, callQuestion, daemonDisabled } from "../client/call.ts";
import { findQuery, QUERIES } from "../queries/index.ts";
import { didYouMean } from "../nearest.ts";
import { COMMIT, VERSION } from "../version.ts";
import { parseCommand } from "./flags.ts";
import { mainHelp, questionHelp } from "./help.ts";
import { withInterrupt } from "./interrupt.ts";
import { render } from "./render/index.ts";
import { runtime } from "../runtime/index.ts";
import { withProgress, type IndexState } from "./progress.ts";
import { styleFor } from "./style.ts";
import { BROKEN_PIPE_EXIT, COMMANDS, isBrokenPipe, isCommand, printError, runCommand } from "./commands.ts";

async function runQuestion(name: string, argv: string[]): Promise<number> {
  const def = findQuery(name)!;
  const json = argv.includes("--json");
  try {
    const cmd = parseCommand(def, argv, process.cwd());
    if (cmd.help) {
      await runtime.write(1, questionHelp(def) + "\n");
      return 0;
    }
    const opts = { cwd: process.cwd(), noDaemon: cmd.noDaemon };
    const status = () => callQuestion("status", { repo: cmd.input.repo }, opts) as Promise<IndexState>;
    // On a terminal the daemon is told the call's name, to say how far the question itself got.
    const ticket = !daemonDisabled(opts) && (await runtime.isTerminal(2)) ? Math.random().toString(36).slice(2) : undefined;
    const asked = ticket ? () => askProgress(ticket) : undefined;
    // suspects reads --trace FILE here and runs --bisect here, in the user's shell, never in the daemon.
    const local = name === "suspects" ? (await import("./suspects-cli.ts")).suspectsInput(cmd.input, process.cwd()) : { input: cmd.input };
    const result = await withInterrupt(async () => {
      const r = await withProgress(callQuestion(name, ticket ? { ...local.input, ticket } : local.input, opts), status, name === "contributors" ? "blame" : "history", asked);
      return local.bisect ? await (await import("./suspects-cli.ts")).bisectSuspects(r as never, local.bisect, (line) => void runtime.write(2, line + "\n")) : r;
    });
    if (cmd.json) await runtime.write(1, JSON.stringify(result) + "\n");
    else await runtime.write(1, render(name, result, await styleFor(1)) + "\n");
    // lore git exits as git did (git diff --exit-code, grep with no match); --json readers find exitCode in the answer.
    return name === "git" && !cmd.json ? (result as { exitCode: number }).exitCode : 0;
  } catch (err) {
    // The reader went away: stop quietly, as git does.
    if (isBrokenPipe(err)) return BROKEN_PIPE_EXIT;
    return await printError(toLoreError(err), json);
  }
}

/** Flags every question takes, which may also come before it (`lore --repo DIR status`, as `git -C DIR status`); true: takes a value. */
const LEADING_FLAGS: Record<string, boolean> = { "--repo": true, "--until": true, "--json": false, "--no-daemon": false };

/**
 * The arguments with flags given before the question moved after it, where the question's parser reads them.
 * `lore [flags] git ARGS…`: every word after git is git's, so lore's flags go before it and git's words after a --.
 */
export function questionFirst(argv: string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const [name] = argv[i]!.split("=", 1);
    if (!(name! in LEADING_FLAGS)) break;
    const takesValue = LEADING_FLAGS[name!] && !argv[i]!.includes("=");
    leading.push(...argv.slice(i, i + (takesValue ? 2 : 1)));
    i += takesValue ? 2 : 1;
  }
  if (argv[i] === "git") {
    const words = argv.slice(i + 1);
    return words.length === 0 || words[0] === "--help" || words[0] === "-h" ? ["git", "--help"] : ["git", ...leading, "--", ...words];
  }
  return leading.length && i < argv.length ? [argv[i]!, ...argv.slice(i + 1), ...leading] : argv;
}

export async function runCli(args: string[]): Promise<number> {
  const argv = questionFirst(args);
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    const q = rest[0] ? findQuery(rest[0]) : undefined;
    await runtime.write(1, (q ? questionHelp(q) : mainHelp()) + "\n");
    return 0;
  }
  if (first === "--version" || first === "-v" || first === "version") {
    await runtime.write(1, `lore ${VERSION} (${COMMIT})\n`);
    return 0;
  }
  if (findQuery(first)) return runQuestion(first, rest);
  if (isCommand(first)) return runCommand(first, rest);
  if (first.startsWith("-")) return printError(new LoreError("UNKNOWN_QUESTION", `"${first}" is not a question; write the question first (lore <question> [flags]); run lore --help for the list.`), argv.includes("--json"));
  // As git says "The most similar command is": the questions and commands nearest to what was typed (hook is not for people).
  const known = [...QUERIES.map((q) => q.name), ...Object.keys(COMMANDS).filter((c) => c !== "hook"), "help", "version"];
  return printError(new LoreError("UNKNOWN_QUESTION", `lore has no command "${first}".${didYouMean(first, known, (c) => `lore ${c}`)} Run lore --help for the list.`), argv.includes("--json"));
}
