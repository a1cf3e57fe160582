/** search: commits whose message matches words (FTS5), or, with code, whose changes add or remove a text (git log -S / -G). */
import { provenanceFields } from "./provenance.ts";
import { defineQuery, type Args } from "./define.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";

export interface SearchFile {
  path: string;
  added: number;
  removed: number;
}

export interface SearchResult {
  sha: string;
  author: string;
  time: string;
  subject: string;
  /** Message search: the matching part of the message, matches marked «…». */
  snippet?: string;
  /** Code search: the files where the number of occurrences changed (up to 50). */
  files?: SearchFile[];
  /** Code search: how many files there were, when more than 50. */
  filesTotal?: number;
  /** Code search: a shallow clone's boundary commit, where git sees the text added against nothing; it may be older. */
  boundary?: true;
}

export interface SearchOutput {
  repo: string;
  rev: string;
  query: string;
  /** Code search: "pickaxe" (git log -S) or "regex" (git log -G). */
  mode?: "pickaxe" | "regex";
  results: SearchResult[];
  /** Message search: how many commits match in all. */
  total?: number;
  /** Code search with oldest: the lines the oldest commit added the text with, as hunks of git show SHA -- FILE, by file. */
  diff?: Record<string, string>;
  truncated: boolean;
  /** Code search on a damaged clone: "path: why" for each path git could not read, left out of the walk. */
  leftOut?: string[];
  /** The search may miss commits below a shallow clone's boundary (with oldest: the oldest seen may not be the first). */
  historyStops?: HistoryStops;
}

export const SEARCH_ARGS = {
  query: { type: "string", required: true, positional: true, text: true, description: 'Words, "a phrase", prefix*; code: a text.' },
  paths: { type: "strings", positional: true, description: "Only commits touching these.", agent: "" },
  limit: { type: "integer", min: 1, short: "n", description: "Default 20, code 5." },
  author: { type: "string", description: "In author name or email.", agent: "" },
  since: { type: "string", date: true, description: 'Only commits from this date on: 2024-01-31, "3 months ago", 2w, yesterday.', agent: "" },
  newest: { type: "boolean", description: "git log order." },
  code: { type: "boolean", description: "Code changes: git log -S.", agent: "git log -S." },
  regex: { type: "boolean", description: "With code: -G." },
  oldest: { type: "boolean", description: "With code: oldest first, with the lines the oldest added.", agent: "With code: oldest first, + its lines." },
} as const satisfies Args;

export const searchQuery = defineQuery({
  name: "search",
  summary: "Commits whose message, or whose code changes (--code), match a text",
  description: "Commits by message words (ranked), or with code by text they add or remove: git log --grep, -S, -G.",
  args: SEARCH_ARGS,
  // Code search is git's alone: while a first index is built it answers at once; message search waits for the whole history.
  answersFromPrefix: true,
  continues: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      rev: z.string(),
      query: z.string(),
      mode: z.enum(["pickaxe", "regex"]).optional(),
      results: z.array(
        z.object({
          sha: z.string(),
          author: z.string(),
          time: z.string(),
          subject: z.string(),
          snippet: z.string().optional(),
          ...provenanceFields(z),
          files: z.array(z.object({ path: z.string(), added: z.number().int(), removed: z.number().int() })).optional(),
          filesTotal: z.number().int().optional(),
          boundary: z.literal(true).optional(),
        }),
      ),
      total: z.number().int().optional(),
      diff: z.record(z.string(), z.string()).optional(),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/search.ts"),
});
