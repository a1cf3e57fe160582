/** hotspots: the files that change most, weighted by their size. */
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { defineQuery, type Args } from "./define.ts";
import { WINDOW_ARGS } from "./shared-args.ts";

export interface HotspotsOutput {
  repo: string;
  path: string;
  rev: string;
  window: { commits: number; since?: string };
  results: { path: string; commits: number; additions: number; deletions: number; authors: number; lastChanged: string; lines: number; complexity: number; score: number; hotspot: boolean }[];
  truncated: boolean;
  /** The window reached a shallow clone's boundary (a commit diffed against nothing, or the clone's end). */
  historyStops?: HistoryStops;
}

export const HOTSPOTS_ARGS = {
  path: { type: "string", positional: true, description: "A folder." },
  limit: { type: "integer", default: 5, min: 1, max: 1000, short: "n", cliOnly: true, description: "At most this many files (default 5)." },
  commits: { ...WINDOW_ARGS.commits, cliOnly: true },
  since: { ...WINDOW_ARGS.since, cliOnly: true },
  all: { type: "boolean", default: false, cliOnly: true, description: "Keep lockfiles, generated and vendored files, and count the commits .git-blame-ignore-revs names." },
} as const satisfies Args;

export const hotspotsQuery = defineQuery({
  name: "hotspots",
  continues: true,
  summary: "The files that change most (churn × size), under PATH",
  description:
    "Most-changed files: commits (newest 500) × log10(10 + lines); no lockfiles, generated, vendored.",
  args: HOTSPOTS_ARGS,
  answersFromPrefix: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      window: z.object({ commits: z.number().int(), since: z.string().optional() }),
      results: z.array(
        z.object({
          path: z.string(),
          commits: z.number().int(),
          additions: z.number().int(),
          deletions: z.number().int(),
          authors: z.number().int(),
          lastChanged: z.string(),
          lines: z.number().int(),
          complexity: z.number().int(),
          score: z.number(),
          hotspot: z.boolean(),
        }),
      ),
      truncated: z.boolean(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/hotspots.ts"),
});
