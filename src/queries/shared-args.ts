/** Arguments several questions declare alike: a file path, the ignore-revs switch, a window of history. */
import type { ArgSpec, Args } from "./define.ts";

export const FILE_PATH = {
  type: "string",
  required: true,
  positional: true,
  description: "File path.",
  // (Its name says it to an agent.)
  agent: "",
} as const satisfies ArgSpec;

export const IGNORE_REVS = {
  type: "boolean",
  default: true,
  description: "Use .git-blame-ignore-revs (CLI: --no-ignore-revs).",
  agent: "",
} as const satisfies ArgSpec;

export const WINDOW_ARGS = {
  commits: { type: "string", default: "500", description: 'How many of the newest commits to look at, or "all" (default 500).' },
  since: { type: "string", date: true, description: 'Only commits from this date on: 2024-01-31, "6 months ago", 2w, yesterday.' },
} as const satisfies Args;
