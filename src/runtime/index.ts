/** Picks the runtime seam for the runtime we run on; the only place that asks which one it is. */
import type { Runtime } from "./types.ts";

export type { Runtime, SqlDatabase, SqlStatement, SqlValue, Row, UnixServer } from "./types.ts";

export const runtime: Runtime =
  "Deno" in globalThis ? (await import("./deno.ts")).runtime : (await import("./bun.ts")).runtime;
