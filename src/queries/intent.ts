/** intent: the full messages of the commits that wrote a range of lines, and what else each touched. */
import { provenanceFields, type Provenance } from "./provenance.ts";
import { defineQuery, type Args } from "./define.ts";
import { FILE_PATH, IGNORE_REVS } from "./shared-args.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";

export interface IntentCommit extends Provenance {
  sha: string;
  author: string;
  time: string;
  /** The full message; its first line is the subject. */
  message: string;
  lines: [number, number][];
  /** The other files the commit changed (PATH is not repeated): up to 5, nearest PATH first; all with `files`. */
  files: string[];
  filesTotal: number;
}

export interface IntentOutput {
  repo: string;
  path: string;
  rev: string;
  range: [number, number];
  commits: IntentCommit[];
  /** The file on disk differs from HEAD's: lines are its own. */
  worktree?: true;
  /** Lines of the range not committed yet (on disk only); absent when none. */
  uncommitted?: [number, number][];
  /** Lines git pins on a shallow clone's boundary commit: written there or before, so no commit here says why; absent when none. */
  beforeHistory?: [number, number][];
  historyStops?: HistoryStops;
}

export const INTENT_ARGS = {
  path: FILE_PATH,
  startLine: { type: "integer", description: "First line (required). CLI: -L START,END.", agent: "" },
  endLine: { type: "integer", description: "Last line.", agent: "" },
  function: { type: "string", cliOnly: true, description: "A function's lines, as git blame -L :NAME finds them (in the file on disk unless --until). CLI: -L :NAME." },
  ignoreRevs: IGNORE_REVS,
  files: { type: "boolean", description: "Every file of each commit (default: the 5 nearest the path).", agent: "All, not the 5 nearest." },
} as const satisfies Args;

export const intentQuery = defineQuery({
  name: "intent",
  continues: true,
  summary: "Why lines exist: the full messages of the commits that wrote them",
  description:
    "Why lines exist (git blame -L + git show): the commits that wrote them, full messages, their lines, files nearest the path.",
  args: INTENT_ARGS,
  needsHistory: false,
  readsDisk: () => true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      range: z.tuple([z.number().int(), z.number().int()]),
      commits: z.array(
        z.object({
          sha: z.string(),
          author: z.string(),
          time: z.string(),
          message: z.string(),
          lines: z.array(z.tuple([z.number().int(), z.number().int()])),
          files: z.array(z.string()),
          filesTotal: z.number().int(),
          ...provenanceFields(z),
        }),
      ),
      worktree: z.literal(true).optional(),
      uncommitted: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
      beforeHistory: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/intent.ts"),
});
