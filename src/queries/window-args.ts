/** The arguments that choose a window of history, shared by cochange and hotspots. */
import type { Args } from "./define.ts";

export const WINDOW_ARGS = {
  commits: { type: "string", default: "500", description: 'How many of the newest commits to look at, or "all" (default 500).' },
  since: { type: "string", description: 'Only commits from this date on (any date git understands: 2024-01-31, "6 months ago").' },
} as const satisfies Args;
