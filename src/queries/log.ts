/** log: the repository's commits newest first, or those under files and folders, with their files and +/-. */
import { provenanceFields, type Provenance } from "./provenance.ts";
import type { z as Zod } from "zod";
import { defineQuery, type Args } from "./define.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";

export interface LogFile {
  path: string;
  additions?: number;
  deletions?: number;
  status?: string;
  oldPath?: string;
  binary?: true;
}

export interface LogCommit extends Provenance {
  sha: string;
  author: string;
  time: string;
  subject: string;
  merge?: true;
  additions: number;
  deletions: number;
  files: LogFile[];
  filesTotal: number;
  /** A shallow clone's boundary commit: git shows its changes against nothing, so its files were there before it. */
  boundary?: true;
  /** Named in .git-blame-ignore-revs (a reformatting): blame looks through it, hotspots and cochange leave it out. */
  ignored?: true;
}

export interface LogOutput {
  repo: string;
  rev: string;
  paths: string[];
  commits: LogCommit[];
  truncated: boolean;
  /** Files git cannot read in a damaged clone ("path: why"), listed without +/-; absent when none. */
  leftOut?: string[];
  historyStops?: HistoryStops;
}

export const LOG_ARGS = {
  paths: { type: "strings", positional: true, description: "Only commits changing these files or folders.", agent: "" },
  limit: { type: "integer", default: 20, short: "n", description: "At most this many commits (default 20).", agent: "" },
  skip: { type: "integer", min: 0, cliOnly: true, description: "Leave out the first N commits (those a cut answer listed).", agent: "" },
  author: { type: "string", description: "Only commits whose author (name <email>, mailmap applied) contains this text, in any case.", agent: "" },
  since: { type: "string", date: true, description: 'Only commits committed on or after this date: 2024-01-31, "3 months ago", 2w, yesterday.', agent: "" },
  before: { type: "string", date: true, description: "Only commits committed on or before this date (git log --until), in the same forms.", agent: "git --until" },
  not: { type: "string", description: "Leave out commits reachable from this revision: --not main lists what this branch has that main has not.", agent: "" },
  firstParent: { type: "boolean", description: "Follow only the first parent of merges (a merge then lists its files against it).", agent: "" },
  noMerges: { type: "boolean", description: "Leave out merge commits.", agent: "" },
  fullDiff: { type: "boolean", description: "List every file of a commit, not only those under the paths.", agent: "" },
} as const satisfies Args;

/** A file's change in a commit, in every answer that lists one. */
export function fileShape(z: typeof Zod) {
  return z.object({
    path: z.string(),
    additions: z.number().int().optional(),
    deletions: z.number().int().optional(),
    status: z.string().optional(),
    oldPath: z.string().optional(),
    binary: z.boolean().optional(),
  });
}

export function logCommitShape(z: typeof Zod) {
  return z.object({
    sha: z.string(),
    author: z.string(),
    time: z.string(),
    subject: z.string(),
    merge: z.boolean().optional(),
    additions: z.number().int(),
    deletions: z.number().int(),
    files: z.array(fileShape(z)),
    filesTotal: z.number().int(),
    boundary: z.literal(true).optional(),
    ...provenanceFields(z),
    ignored: z.literal(true).optional(),
  });
}

export const logQuery = defineQuery({
  name: "log",
  continues: true,
  summary: "The repository's commits newest first, or those under paths, with files and +/-",
  description: "git log [until] [-- PATHS] with each commit's files, +/-. not:\"main\" = main..HEAD.",
  args: LOG_ARGS,
  answersFromPrefix: true,
  output: (z) => z.object({ repo: z.string(), rev: z.string(), paths: z.array(z.string()), commits: z.array(logCommitShape(z)), truncated: z.boolean(), leftOut: z.array(z.string()).optional(), historyStops: historyStopsSchema(z) }),
  load: () => import("./run/log.ts"),
});
