/** Sets or removes lore's entry in one file, as one step of setup: read, change lore's entry only, check, write atomically. */
import { ConfigError } from "./config-error.ts";
import { sameValue, type EntryFormat } from "./entry-format.ts";
import { forget, recordWrite, withoutLore } from "./setup-files.ts";
import { readConfigText, removeFile, writeAtomic } from "./text-file.ts";
import type { Step } from "../step.ts";

export interface Target {
  file: string;
  format: EntryFormat;
  /** What the entry is, for messages: `MCP server "lore"`, `lore's instructions block`. */
  label: string;
}

export type EntryState = "current" | "outdated" | "missing";

/** A new file gets the mode the user's umask gives. */
function newFileMode(): number {
  return 0o666 & ~process.umask();
}

/** A file with Windows line ends keeps them: the lines lore adds get \r\n too. */
function sameEol(before: string | null, after: string): string {
  return before?.includes("\r\n") && !/(?<!\r)\n/.test(before) ? after.replace(/(?<!\r)\n/g, "\r\n") : after;
}

function failed(err: unknown): Step {
  if (err instanceof ConfigError) return { status: "fail", message: err.message };
  throw err;
}

export function entryState(t: Target, want: unknown): { state: EntryState; have: unknown } {
  const { text } = readConfigText(t.file);
  const have = text === null ? undefined : t.format.read(t.file, text);
  return { have, state: have === undefined ? "missing" : sameValue(have, want) ? "current" : "outdated" };
}

export function setEntry(t: Target, want: unknown, dryRun: boolean): Step {
  try {
    const { text, mode } = readConfigText(t.file);
    const have = t.format.read(t.file, text ?? "");
    if (sameValue(have, want)) return { status: "unchanged", message: `${t.label} already in ${t.file}` };
    const next = sameEol(text, t.format.set(t.file, text ?? "", want));
    if (!sameValue(t.format.read(t.file, next), want)) throw new ConfigError(t.file, "lore's change did not read back as written, so the file was left as it is");
    const verb = have === undefined ? "add" : "update";
    if (dryRun) return { status: "changed", message: `would ${verb} ${t.label} in ${t.file}` };
    writeAtomic(t.file, next, text === null ? newFileMode() : mode);
    recordWrite(t.file, text, next, t.format);
    return { status: "changed", message: `${verb === "add" ? "added" : "updated"} ${t.label} in ${t.file}` };
  } catch (err) {
    return failed(err);
  }
}

export function removeEntry(t: Target, dryRun: boolean): Step {
  try {
    const { text, mode } = readConfigText(t.file);
    if (text === null || t.format.read(t.file, text) === undefined) return { status: "unchanged", message: `no ${t.label} in ${t.file}` };
    const next = withoutLore(t.file, text, t.format);
    if (dryRun) return { status: "changed", message: `would remove ${t.label} from ${t.file}${next === null ? " (and the file, which setup created)" : ""}` };
    if (next === null) removeFile(t.file);
    else writeAtomic(t.file, next, mode);
    forget(t.file);
    return { status: "changed", message: `removed ${t.label} from ${t.file}${next === null ? " (and the file, which setup created)" : ""}` };
  } catch (err) {
    return failed(err);
  }
}
