/**
 * A strict command-line parser: long and short options, --name=value, -n5, and -- before
 * positionals. It does what node:util's parseArgs did for lore; that module costs ~5 ms
 * to load in a compiled binary, a quarter of a warm call.
 */

import { LoreError } from "../errors.ts";
import { nearest } from "../nearest.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Typed with its short letter only (-L): --L is not an option. */
  shortOnly?: true;
}

export interface ParsedArgv {
  values: Record<string, string | boolean>;
  positionals: string[];
  /** How many positionals came before a `--` (undefined: no `--`). */
  beforeDashDash?: number;
}

export class ArgvError extends Error {}

/** "Unknown option '--lmit' (did you mean --limit?)": the nearest long options, as git names the nearest command. */
function unknown(shown: string, name: string, options: Record<string, OptionSpec>): string {
  const near = nearest(name, Object.keys(options).filter((o) => !options[o]!.shortOnly));
  return `Unknown option '${shown}'${near.length ? ` (did you mean ${near.map((o) => `--${o}`).join(" or ")}?)` : ""}`;
}

export function parseArgv(args: readonly string[], options: Record<string, OptionSpec>): ParsedArgv {
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(options)) if (spec.short) byShort.set(spec.short, name);
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      const beforeDashDash = positionals.length;
      positionals.push(...args.slice(i + 1));
      return { values, positionals, beforeDashDash };
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    let shown: string;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      shown = `--${name}`;
      if (!(name in options) || options[name]!.shortOnly) throw new ArgvError(unknown(shown, name, options));
    } else {
      shown = arg.slice(0, 2);
      name = byShort.get(arg[1]!);
      if (name === undefined) throw new ArgvError(`Unknown option '${shown}'`);
      if (arg.length > 2) inline = arg.slice(2);
    }
    const spec = options[name]!;
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new ArgvError(`Option '${shown}' does not take a value`);
      values[name] = true;
      continue;
    }
    if (inline === undefined) {
      const next = args[i + 1];
      if (next === undefined) throw new ArgvError(`Option '${shown} <value>' needs a value`);
      // A value that looks like an option is most likely a forgotten value: say so rather than guess.
      if (next.startsWith("-") && next !== "-") throw new ArgvError(`Option '${shown}' got '${next}', which looks like an option; write ${shown}=${next} if you mean it`);
      inline = next;
      i++;
    }
    values[name] = inline;
  }
  return { values, positionals };
}

/** parseArgv for a command (`lore setup`, `lore daemon` …): a usage error names the command's help. */
export function parseCommandArgv(argv: readonly string[], options: Record<string, OptionSpec>, command: string, allowPositionals = false): ParsedArgv {
  try {
    const parsed = parseArgv(argv, options);
    if (!allowPositionals && parsed.positionals.length > 0) throw new ArgvError(`Unexpected argument '${parsed.positionals[0]}'`);
    return parsed;
  } catch (err) {
    if (!(err instanceof ArgvError)) throw err;
    throw new LoreError("USAGE", `${err.message}. Run lore ${command} --help.`);
  }
}
