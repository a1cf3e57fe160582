/** lore serve's settings: its flags, and a config file (TOML) whose keys are the flags' names; a flag wins over the file. */
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgv, ArgvError, type OptionSpec } from "../cli/argv.ts";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";
import { parseDuration } from "./durations.ts";
import { parseListen, type Listen } from "./listen.ts";

/** A repository served: the name a tool's `repo` gives, where it is fetched from, the branch followed, an index a CI job publishes. */
export interface ServedRepo {
  name: string;
  source: string;
  branch?: string;
  index?: string;
}

export interface ServeOptions {
  listen: Listen;
  repos: ServedRepo[];
  /** Where the server keeps its own clones (and its secret when none is given). */
  data: string;
  fetchEveryMs: number;
  tokens: string;
  /** The secret continue tokens are sealed with (LORE_SECRET or --secret-file), when shared by replicas. */
  secret?: Buffer;
  log?: string;
  allowHosts: string[];
  allowOrigins: string[];
  /** Requests per minute each token may send (the same in bursts). */
  rate: number;
  /** Seconds a client may take to send its headers, or its body. */
  clientTimeoutS: number;
}

export const FLAGS: Record<string, OptionSpec> = {
  listen: { type: "string" },
  repo: { type: "string" },
  config: { type: "string" },
  data: { type: "string" },
  "fetch-every": { type: "string" },
  tokens: { type: "string" },
  "secret-file": { type: "string" },
  log: { type: "string" },
  "allow-host": { type: "string" },
  "allow-origin": { type: "string" },
  rate: { type: "string" },
  "client-timeout": { type: "string" },
  help: { type: "boolean", short: "h" },
};

/** Flags that may be given more than once. */
const REPEATED = new Set(["repo", "allow-host", "allow-origin"]);

/** The flags as parsed, each repeatable one as a list (parseArgv keeps only the last of a flag given twice). */
export function parseServeArgv(argv: readonly string[]): { values: Record<string, string | boolean>; lists: Record<string, string[]>; positionals: string[] } {
  const lists: Record<string, string[]> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith("--") ? a.slice(2).split("=", 1)[0]! : "";
    if (!REPEATED.has(name)) {
      rest.push(a);
      continue;
    }
    const value = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
    if (value === undefined) throw new LoreError("USAGE", `Option '--${name} <value>' needs a value. Run lore serve --help.`);
    (lists[name] ??= []).push(value);
  }
  try {
    const { values, positionals } = parseArgv(rest, FLAGS);
    return { values, lists, positionals };
  } catch (err) {
    if (err instanceof ArgvError) throw new LoreError("USAGE", `${err.message}. Run lore serve --help.`);
    throw err;
  }
}

function readConfig(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new LoreError("USAGE", `lore serve cannot read its config file ${path}.`);
  }
  try {
    // Loaded here only: the config file is the one TOML lore serve reads.
    const { parse } = require("smol-toml") as typeof import("smol-toml");
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new LoreError("USAGE", `${path} is not valid TOML: ${(err as Error).message.split("\n")[0]}`);
  }
}

/** A repository's name: its folder's (or URL's) last part without .git, unless NAME=SOURCE names it. */
function servedRepo(spec: string | Record<string, unknown>, base: string): ServedRepo {
  const table = typeof spec === "string" ? (/^([A-Za-z0-9._-]+)=(.+)$/.exec(spec) ? { name: spec.split("=", 1)[0], source: spec.slice(spec.indexOf("=") + 1) } : { source: spec }) : spec;
  const source = table.source ?? table.path;
  if (typeof source !== "string" || source === "") throw new LoreError("USAGE", "Each repository served needs a source: a folder or a git URL (--repo DIR, or source = \"…\" in [[repo]]).");
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !/^[^/]+@[^:]+:/.test(source);
  const name = typeof table.name === "string" ? table.name : basename(source.replace(/\/+$/, "")).replace(/\.git$/, "");
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name.startsWith("."))
    throw new LoreError("USAGE", `"${name}" cannot name a served repository (letters, digits, . _ -); name it: --repo NAME=${source}.`);
  return {
    name,
    source: local ? resolve(base, source) : source,
    ...(typeof table.branch === "string" ? { branch: table.branch } : {}),
    // A published index's path, like the source's, is relative to where it was written.
    ...(typeof table.index === "string" ? { index: /^https?:\/\//i.test(table.index) ? table.index : resolve(base, table.index) } : {}),
  };
}

function strings(v: unknown): string[] {
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);
}

function readSecret(file: string | undefined): Buffer | undefined {
  const env = process.env.LORE_SECRET;
  let secret: Buffer | undefined;
  if (file !== undefined) {
    try {
      secret = Buffer.from(readFileSync(file, "utf8").trim());
    } catch {
      throw new LoreError("USAGE", `lore serve cannot read --secret-file ${file}.`);
    }
  } else if (env) secret = Buffer.from(env.trim());
  if (secret && secret.length < 16) throw new LoreError("USAGE", "The secret replicas share (LORE_SECRET or --secret-file) must be at least 16 characters; make one with: openssl rand -hex 32.");
  return secret;
}

export function serveOptions(argv: readonly string[]): ServeOptions {
  const { values, lists, positionals } = parseServeArgv(argv);
  if (positionals.length) throw new LoreError("USAGE", `Unexpected argument '${positionals[0]}'. Run lore serve --help.`);
  const configPath = typeof values.config === "string" ? resolve(values.config) : undefined;
  const file = configPath ? readConfig(configPath) : {};
  const base = configPath ? resolve(configPath, "..") : process.cwd();
  const pick = (name: string): unknown => values[name] ?? file[name];
  const repos = [
    ...(lists.repo ?? []).map((r) => servedRepo(r, process.cwd())),
    ...(Array.isArray(file.repo) ? file.repo : file.repo === undefined ? [] : [file.repo]).map((r) => servedRepo(r as string | Record<string, unknown>, base)),
  ];
  if (repos.length === 0) throw new LoreError("USAGE", "lore serve serves only the repositories it is given: name at least one with --repo DIR (or [[repo]] in --config).");
  const names = repos.map((r) => r.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new LoreError("USAGE", `Two served repositories are named "${twice}"; name one of them: --repo OTHER=DIR.`);
  const listen = pick("listen");
  const rate = Number(pick("rate") ?? 120);
  if (!Number.isInteger(rate) || rate < 1) throw new LoreError("USAGE", `--rate takes a whole number of requests per minute, not "${String(pick("rate"))}".`);
  // A path is relative to where it was written: the current folder for a flag, the config file's folder for its keys.
  const pathOf = (name: string) => (values[name] !== undefined ? resolve(String(values[name])) : file[name] !== undefined ? resolve(base, String(file[name])) : undefined);
  const data = pathOf("data") ?? join(loreHome(), "serve");
  return {
    listen: parseListen(typeof listen === "string" ? listen : "127.0.0.1:7077"),
    repos,
    data,
    fetchEveryMs: parseDuration("fetch-every", pick("fetch-every") ?? "60s"),
    tokens: pathOf("tokens") ?? join(data, "tokens"),
    secret: readSecret(pathOf("secret-file")),
    log: pathOf("log"),
    allowHosts: [...(lists["allow-host"] ?? []), ...strings(file["allow-host"])],
    allowOrigins: [...(lists["allow-origin"] ?? []), ...strings(file["allow-origin"])],
    rate,
    clientTimeoutS: Math.ceil(parseDuration("client-timeout", pick("client-timeout") ?? "10s") / 1000),
  };
}
