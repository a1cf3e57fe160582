/**
 * How a question is declared: its arguments as plain data (so the CLI can derive flags
 * without loading zod), a lazily built output schema for MCP, and a loader for the code
 * that answers it (so the CLI, which only sends questions, never loads git or SQLite code).
 */
import type { z as Zod } from "zod";
import { LoreError } from "../errors.ts";
import { cliWord } from "./arg-words.ts";
import type { QueryContext } from "./context.ts";
import { badDate, readDate } from "./date-text.ts";
import { didYouMean } from "../nearest.ts";
import { provenanceFields } from "./provenance.ts";

/** "strings" is a list of strings (several paths); on the CLI, a positional list takes every remaining positional. */
export type ArgType = "string" | "integer" | "boolean" | "strings";

export interface ArgSpec {
  type: ArgType;
  /** Shown in --help and as the MCP field's description. */
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  /**
   * CLI: this argument is taken from the positionals, in declaration order: a string takes one,
   * a "strings" list takes all that remain (declare it last).
   */
  positional?: boolean;
  /** CLI: a positional that is not a path (a revision, a search text): passed as typed, not resolved against the repository. */
  text?: boolean;
  /**
   * CLI: an optional revision positional before paths (compare's HEAD). Like git, a word that names
   * an existing path, or comes after --, is left to the paths.
   */
  revision?: boolean;
  /** What the MCP schema says of the field, when not `description`; "" for nothing (its name and the tool's description say it: every byte is sent on every turn). */
  agent?: string;
  /** The answering code refuses bad values itself, NUL bytes included, with its own code (lore git: NOT_ALLOWED). */
  checkedByRunner?: true;
  /** CLI: short flag letter. */
  short?: string;
  /** CLI: long flag name, when not the kebab-case of the field name. */
  flag?: string;
  /** Not offered to MCP (its bytes are paid on every turn): a refinement a person types, rarely an agent. */
  cliOnly?: boolean;
  /** A date in one of the forms lore reads (src/queries/date-text.ts), checked on every face; "or-snapshot": or one of lore's snapshot ids. */
  date?: true | "or-snapshot";
}

export type Args = Record<string, ArgSpec>;

type ArgValue<S extends ArgSpec> = S["type"] extends "integer" ? number : S["type"] extends "boolean" ? boolean : S["type"] extends "strings" ? string[] : string;
export type InputOf<A extends Args> = { [K in keyof A]: A[K] extends { required: true } | { default: unknown } ? ArgValue<A[K]> : ArgValue<A[K]> | undefined };

/** The input a question's code receives: its own arguments and the common ones, checked and defaulted. */
export type Input<A extends Args> = InputOf<A & typeof COMMON_ARGS>;

/** What a question's answering module exports. */
export interface QueryModule<A extends Args, O> {
  run: (ctx: QueryContext, input: Input<A>) => Promise<O>;
}

/** A question as its file declares it. */
export interface QuerySpec<A extends Args = Args, O = unknown> {
  name: string;
  /** One line: what the question answers (CLI help). */
  summary: string;
  /** For agents: when to ask this instead of running git (MCP tool description, under 2 KB). */
  description: string;
  args: A;
  /** The result's shape; built only where zod is loaded (daemon, MCP, tests). */
  output: (z: typeof Zod) => Zod.ZodType;
  /** False for questions that report on the index rather than read it (status): they do not wait for it. */
  needsIndex?: boolean;
  /** False for questions git alone can answer (blame): while a first index is built, the daemon answers them without waiting for it. */
  needsHistory?: boolean;
  /**
   * True for questions that can tell when the newest commits indexed so far already give
   * the whole answer (the changes of a busy file, a window of recent commits): while a first
   * index is built, the daemon answers them as soon as that is so, and otherwise when it ends.
   */
  answersFromPrefix?: boolean;
  /** The common arguments it takes, when not all: a question with its own revision (show REV, compare HEAD) takes no `until`. */
  common?: readonly (keyof typeof COMMON_ARGS)[];
  /** True for a question that writes to the work tree (restore): MCP says so (readOnlyHint false, destructiveHint true). */
  writes?: true;
  /** False for a question MCP asks only about the server's own repository (no repo argument there: memory of the agent's own work tree). */
  otherRepos?: false;
  /** False for a question MCP leaves out, where another tool's parameter does its work (fewer tool bytes on every turn). */
  mcp?: false;
  /** True when, without `until`, the answer is about the file on disk at input.path (blame, intent, history -L): an answer cache must see the file's stamp. */
  readsDisk?: (input: Record<string, unknown>) => boolean;
  /** False for a question about the work tree as a whole, or about refs that move on their own (review): no answer cache may keep it. */
  cacheable?: false;
  /** True for a question with a list an answer may cut (src/queries/pages.ts: at a page size, a byte budget, limit, a deadline): every face offers it continue. */
  continues?: true;
  /**
   * True for a question whose text face says all its answer holds, in fewer tokens than its JSON
   * (show: a commit as git show prints it, a file's text unescaped): MCP answers with the text
   * alone (no outputSchema, no structuredContent), which is what every client gives the model then.
   */
  textForModel?: true;
  /** Loads the code that answers the question (src/queries/run/<name>.ts). */
  load: () => Promise<QueryModule<A, O>>;
}

/** A question in the registry: its declaration, the common arguments added, and run() loading its code on first use. */
export interface QueryDef<A extends Args = Args, O = unknown> extends Omit<QuerySpec<A, O>, "load"> {
  run: (ctx: QueryContext, input: InputOf<A>) => Promise<O>;
}

/** The fields a list of commits gives each one, in output schemas (12-hex sha; no email: DESIGN's conventions). */
export function commitFields(z: typeof Zod) {
  return { sha: z.string(), author: z.string(), time: z.string(), subject: z.string(), ...provenanceFields(z) };
}

/** Arguments every question takes. */
export const COMMON_ARGS = {
  repo: { type: "string", description: "The repository: a folder inside it (default: the current folder's repository)." },
  until: { type: "string", description: "As of this revision (default HEAD)." },
} as const satisfies Args;

/**
 * How a call is answered rather than what it asks (src/queries/partial.ts reads them before the
 * input is checked): a deadline, and the continue token of a partial answer. MCP's deadline comes
 * from the server's environment (LORE_MCP_DEADLINE), so no tool pays bytes for it.
 */
const ASK_ARGS = {
  deadline: { type: "string", cliOnly: true, description: "Answer within this time (5s, 500ms): what was found by then, partial, with a token to continue." },
  continue: { type: "string", cliOnly: true, agent: "", description: "The token a cut answer gave: the items after those (same arguments)." },
} as const satisfies Args;

export type AnyQuery = QueryDef<Args, unknown>;

export function defineQuery<A extends Args, O>(spec: QuerySpec<A, O>): QueryDef<A & typeof COMMON_ARGS, O> {
  const { load, common, ...rest } = spec;
  const commonArgs: Args = Object.fromEntries((common ?? (Object.keys(COMMON_ARGS) as (keyof typeof COMMON_ARGS)[])).map((k) => [k, COMMON_ARGS[k]]));
  // A question about the agent's own work tree offers MCP no repo.
  if (spec.otherRepos === false && commonArgs.repo) commonArgs.repo = { ...commonArgs.repo, cliOnly: true };
  return {
    ...rest,
    args: { ...spec.args, ...commonArgs, ...ASK_ARGS, ...(spec.continues ? { continue: { ...ASK_ARGS.continue, cliOnly: false } } : {}) } as Args,
    run: async (ctx, input) => (await load()).run(ctx, input as Input<A>),
  } as QueryDef<A & typeof COMMON_ARGS, O>;
}

/** "PATH (file path)": an argument named as the command line names it, and what it is; MCP says it in its own words. */
function named(key: string, spec: ArgSpec): string {
  return `${cliWord(key, spec)} (${spec.description.replace(/\.$/, "").replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase())})`;
}

/**
 * Checks and completes raw input against the declared arguments: the same rules on every face.
 * Messages name arguments as the command line does (--limit, PATH); MCP rewrites them into its parameter names.
 */
export function validateInput(def: AnyQuery, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (!(key in def.args) && raw[key] !== undefined) throw new LoreError("BAD_ARGUMENT", `${def.name} does not take "${key}"; it takes ${Object.keys(def.args).join(", ")}.${didYouMean(key, Object.keys(def.args), (k) => `"${k}"`)}`);
  }
  for (const [key, spec] of Object.entries(def.args)) {
    let v = raw[key];
    const word = cliWord(key, spec);
    if (v === undefined || v === null) {
      if (spec.required) throw new LoreError("BAD_ARGUMENT", `${def.name} needs ${named(key, spec)}.`);
      if (spec.default !== undefined) out[key] = spec.default;
      continue;
    }
    if (spec.type === "integer") {
      if (typeof v === "string" && /^-?\d+$/.test(v.trim())) v = Number(v);
      if (typeof v !== "number" || !Number.isInteger(v)) throw new LoreError("BAD_ARGUMENT", `${word} takes a whole number, not ${JSON.stringify(v)}.`);
      if (spec.min !== undefined && v < spec.min) throw new LoreError("BAD_ARGUMENT", `${word} must be at least ${spec.min}.`);
      if (spec.max !== undefined && v > spec.max) throw new LoreError("BAD_ARGUMENT", `${word} must be at most ${spec.max}.`);
    } else if (spec.type === "boolean") {
      if (v === "true" || v === "false") v = v === "true";
      if (typeof v !== "boolean") throw new LoreError("BAD_ARGUMENT", `${word} is a switch: true or false.`);
    } else if (spec.type === "strings") {
      if (typeof v === "string") v = [v];
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw new LoreError("BAD_ARGUMENT", `${word} takes a list of strings.`);
      if (!spec.checkedByRunner && (v as string[]).some((x) => x.includes("\0"))) throw new LoreError("BAD_ARGUMENT", `${word} cannot contain a NUL byte.`);
      if (spec.required && (v as string[]).length === 0) throw new LoreError("BAD_ARGUMENT", `${def.name} needs ${named(key, spec)}.`);
    } else {
      if (typeof v !== "string") throw new LoreError("BAD_ARGUMENT", `${word} takes a string.`);
      if (v.includes("\0")) throw new LoreError("BAD_ARGUMENT", `${word} cannot contain a NUL byte.`);
      // A snapshot id is hex; anything else must be a date lore reads (git would read garbage as now).
      if (spec.date && !(spec.date === "or-snapshot" && /^[0-9a-f]{4,40}$/i.test(v.trim())) && readDate(v) === undefined) throw badDate(word, v, spec.date === "or-snapshot");
    }
    out[key] = v;
  }
  return out;
}
