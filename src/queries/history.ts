/** history: the commits that changed a file, newest first, following renames. */
import { commitFields, defineQuery, type Args } from "./define.ts";
import { FILE_PATH } from "./shared-args.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import type { Provenance } from "./provenance.ts";
import { asksForLines, LINE_HISTORY_ARGS, lineHistoryCommit } from "./line-history.ts";

export interface HistoryCommit extends Provenance {
  sha: string;
  author: string;
  time: string;
  subject: string;
  additions: number | null;
  deletions: number | null;
  /** Left out when M. */
  status?: string;
  /** Only where the file had another name in that commit. */
  path?: string;
  /** Only on the commit that renamed or copied it. */
  oldPath?: string;
  /** Counts unknown because git cannot read the file's content (a damaged clone; leftOut says which object), not because it is binary. */
  unreadable?: true;
  /** A shallow clone's boundary commit: git shows the file added there against nothing, so no status and counts unknown (null). */
  boundary?: true;
  /** Named in .git-blame-ignore-revs (a reformatting). */
  ignored?: true;
}

export interface HistoryOutput {
  repo: string;
  path: string;
  rev: string;
  commits: HistoryCommit[];
  truncated: boolean;
  /** The file's versions git cannot read ("path: why"), their counts unknown; absent when none. */
  leftOut?: string[];
  historyStops?: HistoryStops;
}

export const HISTORY_ARGS = {
  path: FILE_PATH,
  limit: { type: "integer", default: 20, min: 1, max: 10000, short: "n", description: "Most commits (default 20).", agent: "Most commits." },
  follow: { type: "boolean", default: true, description: "Follow renames (CLI: --no-follow).", agent: "" },
  ...LINE_HISTORY_ARGS,
} as const satisfies Args;

export const historyQuery = defineQuery({
  name: "history",
  summary: "The commits that changed a file, newest first, following renames",
  description:
    "git log --follow FILE with +/- lines; no status: M; path where it had another name.",
  args: HISTORY_ARGS,
  answersFromPrefix: true,
  readsDisk: (input) => typeof input.lines === "string",
  continues: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      // With a line range (or a function): the range at rev, and each commit's range and diff (git log -L).
      range: z.tuple([z.number().int(), z.number().int()]).optional(),
      commits: z.array(
        z.union([
          z.object({
            ...commitFields(z),
            additions: z.number().int().nullable(),
            deletions: z.number().int().nullable(),
            status: z.string().optional(),
            path: z.string().optional(),
            oldPath: z.string().optional(),
            unreadable: z.literal(true).optional(),
            boundary: z.literal(true).optional(),
            ignored: z.literal(true).optional(),
          }),
          lineHistoryCommit(z),
        ]),
      ),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      // The file on disk (no until, it differs from HEAD's): range is its lines, headRange HEAD's that git log -L followed.
      worktree: z.literal(true).optional(),
      headRange: z.tuple([z.number().int(), z.number().int()]).optional(),
      uncommitted: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
      historyStops: historyStopsSchema(z),
    }),
  // A line history is answered by its own module (git log -L), the file's history by the index.
  load: async () => ({ run: async (ctx, input) => (asksForLines(input) ? (await import("./run/line-history.ts")).run(ctx, input) : (await import("./run/history.ts")).run(ctx, input)) as never }),
});
