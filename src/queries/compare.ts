/** compare: what HEAD changed since it left BASE, as a pull request shows it. */
import { defineQuery, type Args } from "./define.ts";
import { fileShape, logCommitShape, type LogCommit, type LogFile } from "./log.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";

export interface CompareOutput {
  repo: string;
  base: string;
  head: string;
  mergeBase: string;
  ahead: number;
  behind: number;
  commits: LogCommit[];
  /** Left out when skip asks for the rest of the commits: the first answer had them. */
  files?: LogFile[];
  filesTotal?: number;
  patch?: string;
  truncated: boolean;
  /** A commit of base...head is a shallow clone's boundary: ahead/behind and the commits stop there. */
  historyStops?: HistoryStops;
}

export const COMPARE_ARGS = {
  base: { type: "string", required: true, positional: true, text: true, description: "The branch compared against (e.g. main).", agent: "" },
  head: {
    type: "string",
    positional: true,
    text: true,
    revision: true,
    description: "The branch compared (default HEAD); like git, a word that names an existing path, or comes after --, is a path instead.",
    agent: "",
  },
  paths: { type: "strings", positional: true, description: "Only these files or folders.", agent: "" },
  limit: { type: "integer", default: 20, short: "n", description: "At most this many commits (default 20).", agent: "" },
  skip: { type: "integer", min: 0, cliOnly: true, description: "Leave out the first N commits (those a cut answer listed), and the files.", agent: "" },
  patch: { type: "boolean", description: "Include the patch.", agent: "" },
  diffLines: { type: "integer", default: 200, description: "Cut the patch after this many lines (default 200).", agent: "" },
} as const satisfies Args;

export const compareQuery = defineQuery({
  name: "compare",
  continues: true,
  summary: "What a branch changed since it left BASE: merge base, ahead/behind, commits, files with +/-",
  description: "git diff base...head --stat + git log base..head: merge base, ahead/behind, commits, files.",
  common: ["repo"],
  args: COMPARE_ARGS,
  output: (z) =>
    z.object({
      repo: z.string(),
      base: z.string(),
      head: z.string(),
      mergeBase: z.string(),
      ahead: z.number().int(),
      behind: z.number().int(),
      commits: z.array(logCommitShape(z)),
      files: z.array(fileShape(z)).optional(),
      filesTotal: z.number().int().optional(),
      patch: z.string().optional(),
      truncated: z.boolean(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/compare.ts"),
});
