/** The absolute command that starts this lore: what Claude Code and the hook are told to run. */
import { fileURLToPath } from "node:url";
import { runtime } from "../runtime/index.ts";

export interface SelfCommand {
  command: string;
  /** Arguments before lore's own (the script, when run from source). */
  prefix: string[];
  /** Run from source: there is no single binary, so the runtime and src/main.ts are registered. */
  fromSource: boolean;
}

export function selfCommand(): SelfCommand {
  // A compiled binary's modules live in its embedded /$bunfs/ filesystem.
  const compiled = import.meta.url.includes("$bunfs") || (process.argv[1] ?? "").startsWith("/$bunfs/");
  if (compiled) return { command: process.execPath, prefix: [], fromSource: false };
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  return { command: process.execPath, prefix: runtime.name === "deno" ? ["run", "-A", main] : [main], fromSource: true };
}

/** POSIX shell quoting, for the hook command Claude Code runs through a shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(self: SelfCommand, args: string[]): string {
  return [self.command, ...self.prefix, ...args].map(shellQuote).join(" ");
}
