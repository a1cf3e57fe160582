/** review: a change read against history before it is committed or merged — what it rewrites, what it may have missed, whom to ask. */
import { provenanceObject, type Provenance } from "./provenance.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { defineQuery, type Args } from "./define.ts";

export interface ReviewFile {
  path: string;
  status?: string;
  oldPath?: string;
  additions?: number;
  deletions?: number;
  binary?: boolean;
  /** An unmerged path (mid-merge or mid-rebase): its content on disk, conflict markers included. */
  conflict?: boolean;
  /** The old side's lines this change deletes or replaces, by the commit that last changed them. */
  rewrites?: Record<string, [number, number][]>;
  /** Lines it rewrites that git pins on a shallow clone's boundary commit: from before the clone's history, no commit here says why. */
  beforeHistory?: [number, number][];
}

export interface ReviewOutput {
  repo: string;
  /** HEAD, full. */
  rev: string;
  base?: string;
  mergeBase?: string;
  /** Set while an operation is half done: the answer is the files on disk, conflict markers included. */
  state?: "merge" | "rebase" | "cherry-pick" | "revert";
  files: ReviewFile[];
  filesTotal: number;
  /** [author, time, subject], and the commit's provenance (pr, release, agent) where it has some. */
  commits: Record<string, [string, string, string] | [string, string, string, Provenance]>;
  fixes: Record<string, string>;
  /** Files the change may have missed, best first; `why` says in one line what puts each there. */
  missing: { path: string; confidence: number; with: string[]; withTotal?: number; why: string }[];
  people: { author: string; email: string; lines: number }[];
  /** CODEOWNERS' owners of the changed files (most files first), as declared at the old side: whom to ask too; absent when none. */
  declared?: string[];
  /** The CODEOWNERS lines that could not be read ("line N: why"). */
  codeownersErrors?: string[];
  truncated: boolean;
  /** "path: why" for each file git could not blame: what the rewrites and people leave out. */
  leftOut?: string[];
  note?: string;
  historyStops?: HistoryStops;
}

export const REVIEW_ARGS = {
  base: {
    type: "string",
    positional: true,
    text: true,
    revision: true,
    description: "Review what this branch changed since it left BASE (git diff BASE...HEAD); default: the uncommitted work. Like git, a word that names an existing path is a path.",
    agent: "Since it left this branch.",
  },
  paths: { type: "strings", positional: true, description: "Only these files or folders.", agent: "" },
  staged: { type: "boolean", description: "Review the staging area only (git diff --cached).", agent: "" },
  all: { type: "boolean", default: false, cliOnly: true, description: "Keep lockfiles, generated and vendored files among those it may have missed." },
} as const satisfies Args;

export const reviewQuery = defineQuery({
  name: "review",
  continues: true,
  summary: "Before you commit: what your change rewrites (and which fixes), files it may have missed, whom to ask",
  description:
    "Before you commit or finish: your change (uncommitted, staged, or since base) vs history: commits and fixes behind lines it deletes, files that usually change with it, whom to ask.",
  common: ["repo"],
  args: REVIEW_ARGS,
  // The work tree, the staging area and BASE all move without a commit.
  cacheable: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      rev: z.string(),
      base: z.string().optional(),
      mergeBase: z.string().optional(),
      state: z.enum(["merge", "rebase", "cherry-pick", "revert"]).optional(),
      files: z.array(
        z.object({
          path: z.string(),
          status: z.string().optional(),
          oldPath: z.string().optional(),
          additions: z.number().int().optional(),
          deletions: z.number().int().optional(),
          binary: z.boolean().optional(),
          conflict: z.boolean().optional(),
          rewrites: z.record(z.string(), z.array(z.tuple([z.number().int(), z.number().int()]))).optional(),
        }),
      ),
      filesTotal: z.number().int(),
      commits: z.record(z.string(), z.union([z.tuple([z.string(), z.string(), z.string()]), z.tuple([z.string(), z.string(), z.string(), provenanceObject(z)])])),
      fixes: z.record(z.string(), z.string()),
      missing: z.array(z.object({ path: z.string(), confidence: z.number(), with: z.array(z.string()), withTotal: z.number().int().optional(), why: z.string() })),
      people: z.array(z.object({ author: z.string(), email: z.string(), lines: z.number().int() })),
      declared: z.array(z.string()).optional(),
      codeownersErrors: z.array(z.string()).optional(),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      note: z.string().optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/review.ts"),
});
