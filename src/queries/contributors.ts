/** contributors: who wrote the lines that exist now, under a path. */
import { agentSharesSchema } from "./provenance.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { defineQuery, type Args } from "./define.ts";
import { IGNORE_REVS } from "./shared-args.ts";

export interface ContributorsOutput {
  repo: string;
  path: string;
  rev: string;
  totalLines: number;
  files: number;
  /** commits: under the path, as git shortlog -s counts them; bot: a [bot] name or a bot's noreply address (listed after the people). */
  results: { author: string; email: string; lines: number; share: number; commits: number; lastChanged: string; coLines?: number; coCommits?: number; agentLines?: number; bot?: true }[];
  /** Lines of commits a coding agent is credited with, by agent (the people who wrote them keep them): absent when none. */
  agents?: Record<string, { lines: number; share: number }>;
  truncated: boolean;
  /** "path: why" of each file git could not blame, left out of the counts. */
  leftOut?: string[];
  /** Lines from before a shallow clone's history (git pins them on its boundary commit): in totalLines, under nobody's name. */
  beforeHistory?: number;
  historyStops?: HistoryStops;
}

export const CONTRIBUTORS_ARGS = {
  path: { type: "string", positional: true, description: "A file or folder." },
  by: { type: "string", description: 'Rank by "lines" owned (default), "commits" (git shortlog -s) or "agent" (lines written with a coding agent).', agent: '"commits"|"agent"' },
  limit: { type: "integer", default: 5, min: 1, max: 1000, short: "n", cliOnly: true, description: "At most this many authors (default 5)." },
  ignoreRevs: { ...IGNORE_REVS, cliOnly: true },
  all: { type: "boolean", default: false, cliOnly: true, description: "Count lockfiles, generated and vendored files too." },
} as const satisfies Args;

export const contributorsQuery = defineQuery({
  name: "contributors",
  continues: true,
  summary: "Who wrote the lines that exist now, under PATH",
  description:
    "Who wrote the surviving lines under path (lines, commits per person): whom to ask; bots last.",
  args: CONTRIBUTORS_ARGS,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      totalLines: z.number().int(),
      files: z.number().int(),
      results: z.array(
        z.object({ author: z.string(), email: z.string(), lines: z.number().int(), share: z.number(), commits: z.number().int(), lastChanged: z.string(), coLines: z.number().int().optional(), coCommits: z.number().int().optional(), agentLines: z.number().int().optional(), bot: z.literal(true).optional() }),
      ),
      agents: agentSharesSchema(z),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      beforeHistory: z.number().int().optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/contributors.ts"),
});
