/** The help text, derived from the registry so it never drifts from the questions. */
import { QUERIES } from "../queries/index.ts";
import type { AnyQuery } from "../queries/define.ts";
import { VERSION } from "../version.ts";
import { flagLabel, questionFlags, questionPositionals } from "./flag-list.ts";
import { pad } from "./table.ts";

export const COMMANDS: [string, string][] = [
  ["daemon start|stop|status", "Run, stop or inspect the background daemon"],
  ["report [PATH] [--out FILE]", "The repository as a picture (HTML), served or written"],
  ["index build|export|import", "Build the whole index now, or carry it as one file (CI, cloud sandboxes)"],
  ["mcp", "Serve the questions to an agent over MCP (stdio)"],
  ["serve --listen H:P --repo DIR", "Serve a team's agents over HTTP MCP (committed history, bearer tokens)"],
  ["setup", "Register lore with your coding agents (Claude Code, Codex, Gemini CLI, opencode, …)"],
  ["doctor", "Check that lore, git, the daemon and the agent setup work"],
  ["completion bash|zsh|fish", "Print a completion script for the shell"],
];

export function mainHelp(): string {
  const qs = QUERIES.map((q) => `  ${pad(q.name, 14)}${q.summary}`);
  const cmds = COMMANDS.map(([c, d]) => `  ${pad(c, 28)}${d}`);
  return [
    `lore ${VERSION}: git history answers for agents and people`,
    "",
    "Usage: lore <question> [args] [--json] [--repo DIR] [--until REV]",
    "",
    "Questions:",
    ...qs,
    "",
    "Commands:",
    ...cmds,
    "",
    "Run lore <question> --help for its flags. --json prints one JSON document on stdout.",
  ].join("\n");
}

/** `lore blame PATH [-L START,END] [flags]`: the help's and the reference's usage line. */
export function usageLine(q: AnyQuery): string {
  const posText = questionPositionals(q)
    .map((p) => (p.required ? ` ${p.word}` : ` [${p.word}]`))
    .join("");
  const range = "startLine" in q.args ? (q.args.startLine!.required ? " -L START,END" : " [-L START,END]") : "";
  return `lore ${q.name}${posText}${range} [flags]`;
}

export function questionHelp(q: AnyQuery): string {
  // Every flag the parser takes, -L and --help too: the parser's options come from this same list.
  const flags = questionFlags(q).map((f) => `  ${pad(flagLabel(f), 24)}${f.description}`);
  return [`lore ${q.name}: ${q.summary}`, "", `Usage: ${usageLine(q)}`, "", "Flags:", ...flags].join("\n");
}
