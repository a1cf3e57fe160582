/** A question's command line as data (its flags and positionals), for the help, the docs reference and shell completions. */
import type { AnyQuery } from "../queries/define.ts";
import { CLI_FLAGS, flagName } from "./flags.ts";

export interface FlagInfo {
  /** The long name without dashes: `limit`, `no-follow`, `json`. */
  long: string;
  short?: string;
  /** The value's placeholder (`N`, `REV`, `DIR`, `VALUE`, `START,END`); absent for a switch. */
  value?: string;
  description: string;
  /** The field of the question's input it sets; absent for the CLI's own flags (--json …). */
  field?: string;
}

export interface PositionalInfo {
  name: string;
  /** PATH, PATH…, QUERY, REV … as the usage line shows it. */
  word: string;
  required: boolean;
  /** Resolved against the repository: a shell completes it as a file name. */
  path: boolean;
}

/** Descriptions are written for every face; on the command line the flag is already named. */
function cliText(description: string): string {
  return description.replace(/\s*\(CLI:[^)]*\)|\s*CLI: [^.]*\./g, "");
}

/** The flags `lore <question>` takes, in declaration order, then -L, then the CLI's own. */
export function questionFlags(q: AnyQuery): FlagInfo[] {
  const flags: FlagInfo[] = [];
  for (const [name, spec] of Object.entries(q.args)) {
    if (spec.positional || name === "startLine" || name === "endLine") continue;
    const value = spec.type === "boolean" ? undefined : spec.type === "integer" ? "N" : name === "until" ? "REV" : name === "repo" ? "DIR" : "VALUE";
    const text = cliText(spec.description);
    // A --no- flag turns the thing off.
    const said = spec.type === "boolean" && spec.default === true ? `Do not ${text[0]!.toLowerCase()}${text.slice(1)}` : text;
    flags.push({ long: flagName(name, spec), ...(spec.short ? { short: spec.short } : {}), ...(value ? { value } : {}), description: said, field: name });
  }
  if ("startLine" in q.args)
    flags.push({ long: "L", short: "L", value: "START,END", description: `Only these lines, as git blame -L takes them: 10,20, 10,+5${"function" in q.args ? ", ,20 or :NAME (a function)" : " or ,20"}.` });
  flags.push({ long: "json", description: "Print the answer as one JSON document" });
  flags.push({ long: "no-daemon", description: "Answer in this process instead of the background daemon" });
  flags.push({ long: "help", short: CLI_FLAGS.help!.short, description: "Show the question's flags" });
  return flags;
}

export function questionPositionals(q: AnyQuery): PositionalInfo[] {
  return Object.entries(q.args)
    .filter(([, s]) => s.positional)
    .map(([name, s]) => ({
      name,
      word: s.type === "strings" ? `${name.replace(/s$/, "").toUpperCase()}…` : name.toUpperCase(),
      required: s.required === true,
      path: !s.text && !s.revision,
    }));
}
