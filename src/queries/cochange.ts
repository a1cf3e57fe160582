/** cochange: the files that tend to change in the same commits as a file. */
import { defineQuery, type Args } from "./define.ts";
import { FILE_PATH, WINDOW_ARGS } from "./shared-args.ts";

export interface CochangeOutput {
  repo: string;
  path: string;
  rev: string;
  window: { commits: number; since?: string; maxFiles: number };
  commits: number;
  results: { path: string; count: number; confidence: number; jaccard: number }[];
  truncated: boolean;
}

export const COCHANGE_ARGS = {
  path: FILE_PATH,
  limit: { type: "integer", default: 10, min: 1, max: 200, short: "n", description: "At most this many files (default 10)." },
  ...WINDOW_ARGS,
  maxFiles: { type: "integer", default: 50, min: 1, max: 100000, description: "Leave out commits touching more than this many files (default 50): sweeping changes say little." },
} as const satisfies Args;

export const cochangeQuery = defineQuery({
  name: "cochange",
  summary: "Files that tend to change in the same commits as PATH",
  description:
    "The files that usually change together with a file (co-change), from commit history: for the commits in the window that touched PATH, how often each other file changed in the same commit. Use before editing a file, to find the tests, docs, configs and call sites that likely need the same change — a question git itself cannot answer. Ranked by count, then by how small the shared commits were. confidence = count / commits touching PATH; jaccard = count / commits touching either.",
  args: COCHANGE_ARGS,
  answersFromPrefix: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      window: z.object({ commits: z.number().int(), since: z.string().optional(), maxFiles: z.number().int() }),
      commits: z.number().int(),
      results: z.array(z.object({ path: z.string(), count: z.number().int(), confidence: z.number(), jaccard: z.number() })),
      truncated: z.boolean(),
    }),
  load: () => import("./run/cochange.ts"),
});
