/**
 * What setup wrote, kept in $LORE_HOME/setup-files.json, so that --uninstall puts a file back
 * byte for byte while nobody has changed it since (a file lore created is removed). The file's
 * earlier text is kept only when taking lore's entry out would not give it back exactly.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse } from "jsonc-parser";
import { join } from "node:path";
import { loreHome } from "../../home.ts";
import type { EntryFormat } from "./entry-format.ts";
import { writeAtomic } from "./text-file.ts";

interface Saved {
  /** sha256 of the text setup wrote. */
  after: string;
  /** The text before setup, when removing lore's entry does not give it back; null: there was no file. */
  before?: string | null;
}

const stateFile = () => join(loreHome(), "setup-files.json");
const hash = (text: string) => createHash("sha256").update(text).digest("hex");

function load(): Record<string, Saved> {
  try {
    const data = JSON.parse(readFileSync(stateFile(), "utf8"));
    return typeof data?.files === "object" && data.files !== null ? data.files : {};
  } catch {
    return {};
  }
}

function store(files: Record<string, Saved>): void {
  writeAtomic(stateFile(), JSON.stringify({ files }, null, 1) + "\n", 0o600);
}

/** Nothing but what a client adds to a file of its own accord (opencode writes "$schema" into its config). */
function bare(text: string): boolean {
  if (text.trim() === "") return true;
  const doc = parse(text);
  return typeof doc === "object" && doc !== null && Object.keys(doc).every((k) => k === "$schema");
}

/** What `file` would be without lore: as setup found it when its text is still what setup wrote, else with lore's entry taken out. */
export function withoutLore(file: string, text: string, format: EntryFormat): string | null {
  const saved = load()[file];
  if (saved && saved.after === hash(text) && saved.before !== undefined) return saved.before;
  const rest = format.read(file, text) === undefined ? text : format.remove(file, text);
  // A file setup created, which the client has since touched: nothing of the user's is in it.
  return saved?.before === null && bare(rest) ? null : rest;
}

/** Remembers that setup turned `file` from `text` (null: no file) into `next`. */
export function recordWrite(file: string, text: string | null, next: string, format: EntryFormat): void {
  const files = load();
  const original = text === null ? null : withoutLore(file, text, format);
  files[file] = format.remove(file, next) === original ? { after: hash(next) } : { after: hash(next), before: original };
  store(files);
}

export function forget(file: string): void {
  const files = load();
  if (!(file in files)) return;
  delete files[file];
  store(files);
}
