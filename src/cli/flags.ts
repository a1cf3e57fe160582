/** Turns a question's declared arguments into command-line flags, and a command line back into input. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ArgvError, parseArgv } from "./argv.ts";
import { LoreError } from "../errors.ts";
import type { AnyQuery, ArgSpec } from "../queries/define.ts";
import { flagName, positionalWord } from "../queries/arg-words.ts";
import { parseRange } from "../queries/line-range.ts";
import { questionOptions } from "./flag-list.ts";

export { questionOptions };

export interface ParsedCommand {
  input: Record<string, unknown>;
  json: boolean;
  noDaemon: boolean;
  help: boolean;
}

/** Hands the positionals to the positional arguments in declaration order; a list takes all that remain. */
function takePositionals(def: AnyQuery, given: string[], repo: string, beforeDashDash = given.length): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const slots = Object.entries(def.args).filter(([, s]) => s.positional);
  const value = (spec: ArgSpec, v: string) => (spec.text ? v : resolve(repo, v));
  let i = 0;
  for (const [name, spec] of slots) {
    if (spec.type === "strings") {
      out[name] = given.slice(i).map((v) => value(spec, v));
      i = given.length;
    } else if (spec.revision && i < given.length && (i >= beforeDashDash || existsSync(resolve(repo, given[i]!)))) {
      continue;
    } else if (i < given.length) out[name] = value(spec, given[i++]!);
  }
  if (i < given.length) {
    const takes = slots.length === 0 ? "no path" : slots.map(([n, s]) => positionalWord(n, s)).join(" ");
    throw new LoreError("USAGE", `lore ${def.name} takes ${takes}; got ${given.map((p) => JSON.stringify(p)).join(" ")}.`);
  }
  return out;
}

export function parseCommand(def: AnyQuery, argv: string[], cwd: string): ParsedCommand {
  let parsed;
  try {
    // The options are the flags --help lists: one declaration for both (flag-list.ts).
    parsed = parseArgv(argv, questionOptions(def));
  } catch (err) {
    if (!(err instanceof ArgvError)) throw err;
    throw new LoreError("USAGE", `${err.message}. Run lore ${def.name} --help for its flags; put -- before a path that starts with "-".`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const input: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(def.args)) {
    if (spec.positional) continue;
    const v = values[flagName(name, spec)];
    if (v === undefined) continue;
    input[name] = spec.type === "boolean" && spec.default === true ? !v : v;
  }
  // -L :NAME names a function, for the questions that find one as git blame does.
  if (typeof values.L === "string" && values.L.trim().startsWith(":") && "function" in def.args) input.function = values.L.trim();
  else if (typeof values.L === "string") Object.assign(input, parseRange(values.L));
  // Like git -C: a path is relative to --repo when given, else to where the person stands.
  input.repo = resolve(cwd, typeof input.repo === "string" ? input.repo : ".");
  Object.assign(input, takePositionals(def, parsed.positionals, input.repo as string, parsed.beforeDashDash));
  return { input, json: values.json === true, noDaemon: values["no-daemon"] === true, help: values.help === true };
}
