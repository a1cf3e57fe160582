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
  filesBlamed: number;
  indexing: boolean;
  lastIndexedAt: string | null;
  shallow: boolean;
  truncated: number | null;
  rebuilt: string | null;
  /** A partial clone (`git clone --filter`): lore reads only the objects that are here. */
  partialClone: boolean;
  /** What the index leaves out, and why (a partial clone, a damaged repository); [] when nothing. */
  leftOut: string[];
  dbPath: string;
  dbBytes: number;
  daemon: { pid: number; version: string; uptimeS: number } | null;
}

export const STATUS_ARGS = {} as const satisfies Args;

export const statusQuery = defineQuery({
  name: "status",
  summary: "What lore has indexed for this repository, and how fresh it is",
  description:
    "The state of lore's index for the repository: HEAD and the indexed head, whether the index is fresh, stale or still indexing, how many commits and files it knows and how many files are blamed, whether the clone is shallow. Use when an answer looks out of date, or to check lore works here.",
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
      indexing: z.boolean(),
      lastIndexedAt: z.string().nullable(),
      shallow: z.boolean(),
      truncated: z.number().int().nullable(),
      rebuilt: z.string().nullable(),
      partialClone: z.boolean(),
      leftOut: z.array(z.string()),
      dbPath: z.string(),
      dbBytes: z.number().int(),
      daemon: z.object({ pid: z.number().int(), version: z.string(), uptimeS: z.number() }).nullable(),
    }),
  load: () => import("./run/status.ts"),
});
