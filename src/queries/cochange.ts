/** cochange: the files that tend to change in the same commits as some files (or as the work tree's changes). */
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { defineQuery, type Args } from "./define.ts";

export interface CochangeOutput {
  repo: string;
  paths: string[];
  rev: string;
  /** The newest `perFile` commits that touched each input (all when omitted), from `since` on, commits of more than maxFiles files left out; `from` is the oldest one's date. */
  window: { perFile?: number; since?: string; maxFiles: number; from?: string };
  /** Commits counted: those of the window that touched an input. */
  commits: number;
  /** Ranked by score (Σ 2^(−i/50) / √(files − 1) over the shared commits), best first. */
  results: { path: string; score: number; count: number; confidence: number; jaccard: number; with?: string[] }[];
  truncated: boolean;
  /** Why there is nothing to say (nothing changed, no history), when so. */
  note?: string;
  /** A file's window reached a shallow clone's boundary: partners from before it are not counted. */
  historyStops?: HistoryStops;
}

/** The ranking chosen on held-out history (`npm run bench:quality`): the newest 200 commits of each file, Σ 2^(−i/50) / √(files − 1). */
export const PER_FILE = 200;
export const HALF_LIFE = 50;

export const COCHANGE_ARGS = {
  paths: { type: "strings", positional: true, description: "Files." },
  changed: { type: "boolean", default: false, description: "Use uncommitted changes.", agent: "" },
  limit: { type: "integer", default: 5, min: 1, max: 200, short: "n", cliOnly: true, description: "At most this many files (default 5)." },
  commits: { type: "string", default: String(PER_FILE), cliOnly: true, description: `Newest commits of each file to count, or "all" (default ${PER_FILE}).` },
  since: { type: "string", cliOnly: true, date: true, description: 'Only commits since this date: 2024-01-31, "6 months ago", 2w, yesterday.' },
  maxFiles: { type: "integer", default: 50, min: 1, max: 100000, cliOnly: true, description: "Skip commits of more files (default 50)." },
  all: { type: "boolean", default: false, cliOnly: true, description: "Keep lockfiles, generated and vendored files, and count the commits .git-blame-ignore-revs names." },
} as const satisfies Args;

export const cochangeQuery = defineQuery({
  name: "cochange",
  continues: true,
  summary: "Files that tend to change in the same commits as PATH… (or as your uncommitted changes)",
  description:
    "Files that usually change with these (changed: true: with your uncommitted edit).",
  args: COCHANGE_ARGS,
  answersFromPrefix: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      paths: z.array(z.string()),
      rev: z.string(),
      window: z.object({ perFile: z.number().int().optional(), since: z.string().optional(), maxFiles: z.number().int(), from: z.string().optional() }),
      commits: z.number().int(),
      results: z.array(z.object({ path: z.string(), score: z.number(), count: z.number().int(), confidence: z.number(), jaccard: z.number(), with: z.array(z.string()).optional() })),
      truncated: z.boolean(),
      note: z.string().optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/cochange.ts"),
});
