/**
 * lore's `[mcp_servers.lore]` table in Codex's config.toml. smol-toml reads and validates the
 * file; the edit is confined to the lines of lore's own table, so every other byte stays as it
 * was, and the result is parsed again and compared with what it must be before it is written.
 */
import { parse, TomlError } from "smol-toml";
import { ConfigError } from "./config-error.ts";
import { sameValue, type EntryFormat } from "./entry-format.ts";

type Table = Record<string, unknown>;

const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

function parsed(file: string, text: string): Table {
  try {
    return parse(text) as Table;
  } catch (err) {
    if (err instanceof TomlError) throw new ConfigError(file, `is not valid TOML (${err.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "")}); lore left it as it is. Fix it, then run lore setup again`, err.line);
    throw err;
  }
}

/** A table header's dotted key, e.g. `[ mcp_servers."lore" ]` → ["mcp_servers", "lore"]; null for any other line. */
export function headerKey(line: string): string[] | null {
  const m = /^\s*\[\[?(.*?)\]\]?\s*(#.*)?\s*$/.exec(line);
  if (!m) return null;
  const keys: string[] = [];
  for (const part of m[1]!.matchAll(/\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(\.|$)/g)) {
    const k = part[1]!;
    keys.push(k.startsWith('"') ? JSON.parse(k) : k.startsWith("'") ? k.slice(1, -1) : k);
  }
  return keys;
}

/** Lines with their endings; a multi-line string's lines are never taken for headers. */
function lines(text: string): { text: string; header: string[] | null }[] {
  const out: { text: string; header: string[] | null }[] = [];
  let open: string | null = null;
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    out.push({ text: line, header: open ? null : headerKey(line) });
    for (const q of line.match(/"""|'''/g) ?? []) open = open === null ? q : open === q ? null : open;
  }
  return out;
}

const within = (key: string[] | null, table: string[]) => key !== null && table.every((k, i) => key[i] === k);

/** The line range of `table` (with its sub-tables), without the blank and comment lines that lead into the next table. */
function section(all: { text: string; header: string[] | null }[], table: string[]): [number, number] | null {
  const start = all.findIndex((l) => l.header !== null && l.header.length === table.length && within(l.header, table));
  if (start < 0) return null;
  let end = start + 1;
  while (end < all.length && !(all[end]!.header && !within(all[end]!.header, table))) end++;
  if (end < all.length) while (end > start + 1 && /^(#|$)/.test(all[end - 1]!.text.trim())) end--;
  return [start, end];
}

function tomlValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  if (isTable(v)) return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)} = ${tomlValue(x)}`).join(", ")} }`;
  // A JSON string is a TOML basic string: the same escapes.
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

function without(doc: Table, path: string[]): Table {
  const copy = structuredClone(doc);
  let t: unknown = copy;
  for (const k of path.slice(0, -1)) t = isTable(t) ? t[k] : undefined;
  if (isTable(t)) delete t[path[path.length - 1]!];
  // A container left empty counts as absent: setup may have added it.
  const top = copy[path[0]!];
  if (path.length === 2 && isTable(top) && Object.keys(top).length === 0) delete copy[path[0]!];
  return copy;
}

/** lore's `[<container>.<name>]` table. */
export function tomlTable(container: string, name = "lore"): EntryFormat {
  const table = [container, name];
  const header = `[${table.join(".")}]`;
  function entry(file: string, doc: Table): unknown {
    const c = doc[container];
    if (c === undefined) return undefined;
    if (!isTable(c)) throw new ConfigError(file, `its ${container} is not a table; lore left the file as it is`);
    return c[name];
  }
  /** The edit must leave every other value as it was; else the file is left alone. */
  function check(file: string, before: Table, text: string, want: unknown): string {
    let after: Table;
    try {
      after = parse(text) as Table;
    } catch {
      after = {};
    }
    if (!sameValue(entry(file, after), want) || !sameValue(without(after, table), without(before, table)))
      throw new ConfigError(file, `lore could not confine its change to its own ${header} table; add it yourself (lore setup --dry-run shows it)`);
    return text;
  }
  return {
    read: (file, text) => entry(file, parsed(file, text)),
    set(file, text, value) {
      const doc = parsed(file, text);
      const all = lines(text);
      const at = section(all, table);
      if (!at && entry(file, doc) !== undefined) throw new ConfigError(file, `defines ${table.join(".")} other than as its own ${header} table; lore edits only that table, so remove lore's entry and run lore setup again`);
      const body = `${header}\n${Object.entries(value as Table).map(([k, v]) => `${k} = ${tomlValue(v)}`).join("\n")}\n`;
      if (at) return check(file, doc, [...all.slice(0, at[0]), { text: body }, ...all.slice(at[1])].map((l) => l.text).join(""), value);
      let prefix = text && !text.endsWith("\n") ? `${text}\n` : text;
      if (prefix.trim()) prefix += "\n";
      return check(file, doc, prefix + body, value);
    },
    remove(file, text) {
      const doc = parsed(file, text);
      const all = lines(text);
      const at = section(all, table);
      if (!at) return text;
      let [start] = at;
      // The blank line setup put before the table goes with it.
      if (start > 0 && all[start - 1]!.text.trim() === "") start--;
      return check(file, doc, [...all.slice(0, start), ...all.slice(at[1])].map((l) => l.text).join(""), undefined);
    },
  };
}
