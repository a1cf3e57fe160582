/** status: what lore knows about a repository and how fresh it is. */
import { defineQuery, type Args } from "./define.ts";

export interface StatusOutput {
  repo: string;
  head: string | null;
  branch: string | null;
  indexedHead: string | null;
  state: "fresh" | "stale" | "indexing" | "empty";
  commitsIndexed: number;
  churnComplete: boolean;
  filesTotal: number;
  /** Text files at HEAD whose blame is cached. */
  filesBlamed: number;
  /** Files at HEAD that can never be blamed (binary files, symlinks): the background pass is done when blamed + unblamable = total. */
  filesUnblamable: number;
  indexing: boolean;
  lastIndexedAt: string | null;
  shallow: boolean;
  /** Only when LORE_MAX_COMMITS capped the history indexed: the cap. */
  maxCommits?: number;
  /** Only when the index file was thrown away and rebuilt on open: why. */
  rebuilt?: string;
  /** Only in a partial clone (`git clone --filter`): lore reads only the objects that are here. */
  partialClone?: true;
  /** Only when the index leaves something out: what, and why (a partial clone, a damaged repository). */
  leftOut?: string[];
  /** Only in a linked worktree: the worktree whose HEAD the shared index follows (this one's HEAD is answered as any commit). */
  indexFollows?: string;
  /** The questions that walk git now rather than read the index (each answers within a deadline, partial if need be). */
  walksGit: string[];
  dbPath: string;
  dbBytes: number;
  daemon: { pid: number; version: string; uptimeS: number } | null;
  /** lore's memory of the work tree: how many snapshots, the newest, bytes on disk, and what pruning keeps. */
  snapshots?: { count: number; newest: string | null; bytes: number; keepHours: number; keepCount: number };
}

export const STATUS_ARGS = {} as const satisfies Args;

export const statusQuery = defineQuery({
  name: "status",
  summary: "What lore has indexed for this repository, and how fresh it is",
  description:
    "Is lore's index fresh? HEAD, indexed head, commits, files blamed.",
  args: STATUS_ARGS,
  needsIndex: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      head: z.string().nullable(),
      branch: z.string().nullable(),
      indexedHead: z.string().nullable(),
      state: z.enum(["fresh", "stale", "indexing", "empty"]),
      commitsIndexed: z.number().int(),
      churnComplete: z.boolean(),
      filesTotal: z.number().int(),
      filesBlamed: z.number().int(),
      filesUnblamable: z.number().int(),
      indexing: z.boolean(),
      lastIndexedAt: z.string().nullable(),
      shallow: z.boolean(),
      maxCommits: z.number().int().optional(),
      rebuilt: z.string().optional(),
      partialClone: z.literal(true).optional(),
      leftOut: z.array(z.string()).optional(),
      indexFollows: z.string().optional(),
      walksGit: z.array(z.string()),
      dbPath: z.string(),
      dbBytes: z.number().int(),
      daemon: z.object({ pid: z.number().int(), version: z.string(), uptimeS: z.number() }).nullable(),
      snapshots: z.object({ count: z.number().int(), newest: z.string().nullable(), bytes: z.number().int(), keepHours: z.number(), keepCount: z.number().int() }).optional(),
    }),
  load: () => import("./run/status.ts"),
});
