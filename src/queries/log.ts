/** log: the repository's commits newest first, or those under files and folders, with their files and +/-. */
import type { z as Zod } from "zod";
import { defineQuery, type Args } from "./define.ts";

export interface LogFile {
  path: string;
  additions?: number;
  deletions?: number;
  status?: string;
  oldPath?: string;
  binary?: true;
}

export interface LogCommit {
  sha: string;
  author: string;
  time: string;
  subject: string;
  merge?: true;
  additions: number;
  deletions: number;
  files: LogFile[];
  filesTotal: number;
}

export interface LogOutput {
  repo: string;
  rev: string;
  paths: string[];
  commits: LogCommit[];
  truncated: boolean;
}

export const LOG_ARGS = {
  paths: { type: "strings", positional: true, description: "Only commits changing these files or folders." },
  limit: { type: "integer", default: 20, min: 1, max: 10000, short: "n", description: "Max commits." },
  author: { type: "string", description: "Author name/email contains (any case)." },
  since: { type: "string", description: "Committed on/after this date." },
  before: { type: "string", description: "Committed on/before this date (git --until)." },
  not: { type: "string", description: "Leave out commits reachable from this revision (e.g. main)." },
  firstParent: { type: "boolean", description: "Follow first parents only." },
  noMerges: { type: "boolean", description: "Leave out merges." },
  fullDiff: { type: "boolean", description: "List all files of a commit, not only those under paths." },
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
  });
}

export const logQuery = defineQuery({
  name: "log",
  summary: "The repository's commits newest first, or those under paths, with files and +/-",
  description: "git log --numstat from the index: commits newest first (whole repo or under paths), each with up to 10 files and +/-. Use instead of git log / git log -- DIR / git log main..HEAD (not: main).",
  args: LOG_ARGS,
  answersFromPrefix: true,
  output: (z) => z.object({ repo: z.string(), rev: z.string(), paths: z.array(z.string()), commits: z.array(logCommitShape(z)), truncated: z.boolean() }),
  load: () => import("./run/log.ts"),
});
