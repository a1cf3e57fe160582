/**
 * The read-only git escape hatch's gate: a command line checked against the allow-list
 * (allowed-options.ts). Every argument is parsed here and handed on in one unambiguous spelling,
 * so git never gets to read an abbreviation, a bundle of short options or a value as an option.
 */
import { LoreError } from "../errors.ts";
import { ALLOWED_SUBCOMMANDS, DENIED, DENIED_IN, LISTS, SUBCOMMANDS, type Table } from "./allowed-options.ts";
import { didYouMean } from "../nearest.ts";

const MAX_ARGS = 64;
const MAX_ARG_BYTES = 4096;

function refuse(message: string): LoreError {
  return new LoreError("NOT_ALLOWED", message);
}

function deniedReason(sub: string, name: string): string | undefined {
  return DENIED_IN[sub]?.[name] ?? DENIED[name];
}

/** Why an unknown long option is refused: an abbreviation of a real one gets named as such. */
function unknownLong(sub: string, name: string, options: Table): LoreError {
  const all = [...options.keys(), ...Object.keys(DENIED)].filter((o) => o.startsWith("--"));
  const longer = all.filter((o) => o !== name && o.startsWith(name));
  if (longer.length > 0)
    return refuse(`${name} looks like an abbreviation of ${longer.slice(0, 3).join(", ")}: lore takes only exact option names, so git never guesses.`);
  return refuse(`${name} is not an option lore lets through to git ${sub} (an allow-list of read-only options).`);
}

/** What a format string may not hold: %G… makes git run gpg. */
function checkValue(name: string, value: string): void {
  if (/^--(format|pretty)$/.test(name) && /%G|%\(signature/.test(value)) throw refuse(`${name} with %G or %(signature) runs gpg to check signatures.`);
}

export interface CheckedArgs {
  sub: string;
  /** What git gets after its global options: the subcommand and every argument in one spelling. */
  argv: string[];
  /** The positionals that may be paths, for the caller to keep inside the repository. */
  paths: string[];
}

/**
 * Checks a git command line against the allow-list and spells it out for git: long options as
 * `--name=value`, short ones one per word with their value attached, positionals before `--`
 * that cannot be read as options. Throws NOT_ALLOWED with the reason.
 */
export function checkGitArgs(args: readonly string[]): CheckedArgs {
  if (args.length === 0) throw new LoreError("BAD_ARGUMENT", `lore git needs a subcommand: ${ALLOWED_SUBCOMMANDS.join(", ")}.`);
  if (args.length > MAX_ARGS) throw refuse(`lore git takes at most ${MAX_ARGS} arguments.`);
  for (const a of args) {
    if (typeof a !== "string") throw new LoreError("BAD_ARGUMENT", "git's arguments must be strings.");
    if (a.includes("\0")) throw refuse("An argument holds a NUL byte, which git would cut short.");
    if (Buffer.byteLength(a) > MAX_ARG_BYTES) throw refuse(`An argument is longer than ${MAX_ARG_BYTES} bytes.`);
  }
  const sub = args[0]!;
  const spec = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub]! : undefined;
  if (!spec) {
    const denied = deniedReason("", sub.split("=")[0]!);
    const why = sub.startsWith("-")
      ? `${sub} is a global git option: ${denied ? `it ${denied}` : "lore git takes none"} (lore's own flags, --repo and --json, go before git)`
      : `git ${sub} is not one of the read-only commands lore runs`;
    throw refuse(`${why}. lore git runs: ${ALLOWED_SUBCOMMANDS.join(", ")}.${sub.startsWith("-") ? "" : didYouMean(sub, ALLOWED_SUBCOMMANDS, (c) => `git ${c}`)}`);
  }
  const { options } = spec;
  const out: string[] = [sub, ...(spec.add ?? [])];
  const positionals: string[] = [];
  const afterDashes: string[] = [];
  const given = new Set<string>();
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      afterDashes.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-") throw refuse(`"-" would make git read standard input or an earlier branch; name the revision.`);
    if (!arg.startsWith("-")) {
      // Where it was typed: before or after --not, --all or --branches, a revision means something else.
      positionals.push(arg);
      out.push(arg);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(arg)) {
      out.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      const reason = deniedReason(sub, name);
      if (reason) throw refuse(`${name} ${reason}.`);
      const kind = options.get(name);
      if (!kind) throw unknownLong(sub, name, options);
      given.add(name);
      if (kind === "flag") {
        if (eq >= 0) throw refuse(`${name} takes no value.`);
        out.push(name);
      } else if (kind === "optional") {
        if (eq >= 0) checkValue(name, arg.slice(eq + 1));
        out.push(arg);
      } else {
        let value: string;
        if (eq >= 0) value = arg.slice(eq + 1);
        else {
          if (i + 1 >= args.length) throw new LoreError("BAD_ARGUMENT", `${name} needs a value.`);
          value = args[++i]!;
        }
        checkValue(name, value);
        out.push(`${name}=${value}`);
      }
      continue;
    }
    // Short options, possibly bundled (-nw): each letter is checked on its own; a letter that takes a value takes the rest.
    for (let k = 1; k < arg.length; k++) {
      const name = "-" + arg[k];
      const where = arg.length > 2 ? ` (inside ${arg})` : "";
      const reason = deniedReason(sub, name);
      if (reason) throw refuse(`${name}${where} ${reason}.`);
      const kind = options.get(name);
      if (!kind) throw refuse(`${name}${where} is not an option lore lets through to git ${sub} (an allow-list of read-only options).`);
      given.add(name);
      const rest = arg.slice(k + 1);
      if (kind === "flag") {
        out.push(name);
        continue;
      }
      if (kind === "optional") {
        out.push(name + rest);
        break;
      }
      let value = rest;
      if (value === "") {
        if (i + 1 >= args.length) throw new LoreError("BAD_ARGUMENT", `${name} needs a value.`);
        value = args[++i]!;
      }
      // An empty value attached would leave git to take the next word as the value.
      if (value === "") throw new LoreError("BAD_ARGUMENT", `${name} needs a value that is not empty.`);
      out.push(name + value);
      break;
    }
  }
  if (afterDashes.length > 0) out.push("--", ...afterDashes);
  finish(sub, out, given, positionals);
  // grep's first positional is its pattern (unless -e gave one): text, not a path.
  const paths = [...(sub === "grep" && !given.has("-e") ? positionals.slice(1) : positionals), ...afterDashes];
  return { sub, argv: out, paths };
}

/** Per-subcommand rules that are about the whole command, not one option: nothing given is rewritten, a command that is not a read is refused. */
function finish(sub: string, out: string[], given: Set<string>, positionals: string[]): void {
  if (sub === "cat-file") {
    const modes = ["-p", "-t", "-s", "-e"].filter((m) => given.has(m));
    if (modes.length !== 1 || positionals.length !== 1) throw new LoreError("BAD_ARGUMENT", "lore git cat-file takes one of -p, -t, -s, -e and one object.");
  }
  if ((sub === "branch" || sub === "tag") && positionals.length > 0 && !LISTS[sub]!.some((o) => given.has(o))) {
    const names = positionals.join(" ");
    throw refuse(
      `lore git is read-only: git ${sub} ${names} would create ${sub === "branch" ? "a branch" : "a tag"} (nothing was run). To list the ${sub === "branch" ? "branches" : "tags"} matching ${names}: lore git ${sub} --list ${names}.`,
    );
  }
  // With no revision and a pipe on stdin, shortlog would read a log from stdin; in a terminal,
  // where a person types it, it reads HEAD's history: HEAD keeps the command's meaning, the one
  // addition lore makes besides the flags that keep programs from running.
  if (sub === "shortlog" && positionals.length === 0 && !["--all", "--branches", "--tags", "--remotes", "--glob", "--reflog"].some((o) => given.has(o))) {
    const dashes = out.indexOf("--");
    out.splice(dashes < 0 ? out.length : dashes, 0, "HEAD");
  }
}
