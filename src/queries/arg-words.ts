/**
 * How the command line spells a question's arguments: its flags (--limit, --no-follow, -L) and its
 * positional words (PATH, PATH…). Messages are written in these words; MCP says them in its own
 * parameter names (src/mcp/agent-words.ts).
 */
import type { ArgSpec } from "./define.ts";

export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** The flag that sets an argument: `--no-x` for a boolean that defaults to true. */
export function flagName(name: string, spec: ArgSpec): string {
  const base = spec.flag ?? kebab(name);
  return spec.type === "boolean" && spec.default === true ? `no-${base}` : base;
}

/** A positional's word in the usage line: PATH, QUERY, PATH… for a list. */
export function positionalWord(name: string, spec: ArgSpec): string {
  return spec.type === "strings" ? `${name.replace(/s$/, "").toUpperCase()}…` : name.toUpperCase();
}

/** The word a message names an argument by on the command line: PATH, -L, --limit, --no-follow. */
export function cliWord(name: string, spec: ArgSpec): string {
  if (spec.positional) return positionalWord(name, spec);
  if (name === "startLine" || name === "endLine") return "-L";
  return `--${flagName(name, spec)}`;
}
