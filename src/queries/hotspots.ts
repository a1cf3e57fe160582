/** hotspots: the files that change most, weighted by their size. */
import { defineQuery, type Args } from "./define.ts";
import { WINDOW_ARGS } from "./shared-args.ts";

export interface HotspotsOutput {
  repo: string;
  path: string;
  rev: string;
  window: { commits: number; since?: string };
  results: { path: string; commits: number; additions: number; deletions: number; authors: number; lastChanged: string; lines: number; score: number }[];
  truncated: boolean;
}

export const HOTSPOTS_ARGS = {
  path: { type: "string", positional: true, description: "Only files under this folder (default: the whole repository)." },
  limit: { type: "integer", default: 10, min: 1, max: 1000, short: "n", description: "At most this many files (default 10)." },
  ...WINDOW_ARGS,
} as const satisfies Args;

export const hotspotsQuery = defineQuery({
  name: "hotspots",
  summary: "The files that change most (churn × size), under PATH",
  description:
    "The files that changed most in recent history, ranked by score = commits × log10(10 + lines): where bugs and merge conflicts concentrate. Use to orient in an unfamiliar codebase or before refactoring; narrow to a folder with path. Counts only files that exist now.",
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
          score: z.number(),
        }),
      ),
      truncated: z.boolean(),
    }),
  load: () => import("./run/hotspots.ts"),
});
