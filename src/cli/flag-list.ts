/**
 * A question's command line as data (its flags and positionals): the one declaration its parser,
 * its --help, the docs reference and shell completions are all built from.
 */
import type { OptionSpec } from "./argv.ts";
import type { AnyQuery } from "../queries/define.ts";
import { flagName, positionalWord } from "../queries/arg-words.ts";

/** Flags every question takes on the command line, beyond its own arguments. */
export const CLI_FLAGS: Record<string, OptionSpec> = {
  json: { type: "boolean" },
  "no-daemon": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

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

/** What a flag's value is, where VALUE would say nothing. */
const PLACEHOLDERS: Record<string, string> = { until: "REV", repo: "DIR", not: "REV", deadline: "TIME", continue: "TOKEN", from: "SNAPSHOT", author: "TEXT", message: "TEXT" };

/** The flags `lore <question>` takes, in declaration order (-L where its lines are declared), then the CLI's own. */
export function questionFlags(q: AnyQuery): FlagInfo[] {
  const flags: FlagInfo[] = [];
  for (const [name, spec] of Object.entries(q.args)) {
    if (name === "startLine")
      flags.push({ long: "L", short: "L", value: "START,END", description: `Only these lines, as git blame -L takes them: 10,20, 10,+5${"function" in q.args ? ", ,20 or :NAME (a function)" : " or ,20"}.` });
    if (spec.positional || name === "startLine" || name === "endLine") continue;
    const value = spec.type === "boolean" ? undefined : spec.type === "integer" ? "N" : (PLACEHOLDERS[name] ?? (spec.date ? "DATE" : "VALUE"));
    const text = cliText(spec.description);
    // A --no- flag turns the thing off.
    const said = spec.type === "boolean" && spec.default === true ? `Do not ${text[0]!.toLowerCase()}${text.slice(1)}` : text;
    flags.push({ long: flagName(name, spec), ...(spec.short ? { short: spec.short } : {}), ...(value ? { value } : {}), description: said, field: name });
  }
  flags.push({ long: "json", description: "Print the answer as one JSON document" });
  flags.push({ long: "no-daemon", description: "Answer in this process instead of the background daemon" });
  flags.push({ long: "help", short: CLI_FLAGS.help!.short, description: "Show the question's flags" });
  return flags;
}

/** A flag as help and the reference show it: `-n, --limit N`, `-L START,END`, `--json`. */
export function flagLabel(f: FlagInfo): string {
  const name = f.long.length === 1 ? `-${f.long}` : `${f.short ? `-${f.short}, ` : ""}--${f.long}`;
  return f.value ? `${name} ${f.value}` : name;
}

/** The options the question's parser takes, from the same list: -L is typed with one dash only. */
export function questionOptions(q: AnyQuery): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = {};
  for (const f of questionFlags(q)) options[f.long] = { type: f.value ? "string" : "boolean", ...(f.short ? { short: f.short } : {}), ...(f.long.length === 1 ? { shortOnly: true } : {}) };
  return options;
}

export function questionPositionals(q: AnyQuery): PositionalInfo[] {
  return Object.entries(q.args)
    .filter(([, s]) => s.positional)
    .map(([name, s]) => ({
      name,
      word: positionalWord(name, s),
      required: s.required === true,
      path: !s.text && !s.revision,
    }));
}
