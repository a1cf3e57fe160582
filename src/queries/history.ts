/** history: the commits that changed a file, newest first, following renames. */
import { commitFields, defineQuery, type Args } from "./define.ts";
import { FILE_PATH } from "./shared-args.ts";

export interface HistoryCommit {
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
}

export interface HistoryOutput {
  repo: string;
  path: string;
  rev: string;
  commits: HistoryCommit[];
  truncated: boolean;
}

export const HISTORY_ARGS = {
  path: FILE_PATH,
  limit: { type: "integer", default: 20, min: 1, max: 10000, short: "n", description: "Most commits (default 20)." },
  follow: { type: "boolean", default: true, description: "Follow renames (CLI: --no-follow)." },
} as const satisfies Args;

export const historyQuery = defineQuery({
  name: "history",
  summary: "The commits that changed a file, newest first, following renames",
  description:
    "A file's commits, newest first, with +/- lines, across renames (git log --follow). No status means M; path only where it had another name.",
  args: HISTORY_ARGS,
  answersFromPrefix: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      commits: z.array(
        z.object({
          ...commitFields(z),
          additions: z.number().int().nullable(),
          deletions: z.number().int().nullable(),
          status: z.string().optional(),
          path: z.string().optional(),
          oldPath: z.string().optional(),
        }),
      ),
      truncated: z.boolean(),
    }),
  load: () => import("./run/history.ts"),
});
