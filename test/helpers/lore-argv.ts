/** How a test starts lore: the compiled test binary (test-binary.ts), or `bun src/main.ts` under LORE_TEST_SOURCE=1. */
import { join } from "node:path";

/** src/main.ts, for the tests that are about running lore from source. */
export const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

/** The command and arguments that start lore from source. */
export function sourceArgv(): [string, ...string[]] {
  return [process.execPath, MAIN];
}

/**
 * The command and leading arguments that start lore: the binary the preload built, else (no preload,
 * as when `bun test` runs outside the repository's root, or LORE_TEST_SOURCE=1) the sources.
 */
export function loreArgv(): [string, ...string[]] {
  const bin = process.env.LORE_TEST_SOURCE === "1" ? undefined : process.env.LORE_TEST_BIN;
  return bin ? [bin] : sourceArgv();
}

/** `lore ...args` as a command and its arguments (an MCP client's stdio transport, spawn). */
export function loreCommand(args: string[]): { command: string; args: string[] } {
  const [command, ...prefix] = loreArgv();
  return { command, args: [...prefix, ...args] };
}
