/** status: what lore knows about a repository and how fresh it is. */
import { statSync } from "node:fs";
import { readHeadBranch, readHeadCommit } from "../git/head-file.ts";
import { currentBranch, isShallow, resolveHead } from "../git/repo.ts";
import { defineQuery } from "./define.ts";

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
  dbPath: string;
  dbBytes: number;
  daemon: { pid: number; version: string; uptimeS: number } | null;
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export const statusQuery = defineQuery({
  name: "status",
  summary: "What lore has indexed for this repository, and how fresh it is",
  description:
    "The state of lore's index for the repository: HEAD and the indexed head, whether the index is fresh, stale or still indexing, how many commits and files it knows and how many files are blamed, whether the clone is shallow. Use when an answer looks out of date, or to check lore works here.",
  args: {},
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
      dbPath: z.string(),
      dbBytes: z.number().int(),
      daemon: z.object({ pid: z.number().int(), version: z.string(), uptimeS: z.number() }).nullable(),
    }),
  async run(ctx): Promise<StatusOutput> {
    const { index } = ctx;
    const { store } = index;
    // The files say where HEAD is without starting git; git is asked only when they cannot tell.
    const fromFiles = readHeadCommit(index.repo);
    const head = fromFiles !== undefined ? fromFiles : await resolveHead(index.repo);
    const namedBranch = readHeadBranch(index.repo);
    const branch = namedBranch !== undefined ? namedBranch : await currentBranch(index.repo);
    const shallow = isShallow(index.repo);
    const indexedHead = store.meta("indexedHead") ?? null;
    const indexing = index.busy;
    const state = head === null ? "empty" : indexing ? "indexing" : head === indexedHead ? "fresh" : "stale";
    const truncated = store.meta("truncated");
    return {
      repo: index.repo.root,
      head,
      branch,
      indexedHead,
      state,
      commitsIndexed: store.history.reachBounds().count,
      churnComplete: indexedHead !== null && store.meta("churnHead") === indexedHead,
      filesTotal: store.tree.count(),
      filesBlamed: store.blame.blamedInTree(),
      indexing,
      lastIndexedAt: store.meta("lastIndexedAt") ?? null,
      shallow,
      truncated: truncated ? Number(truncated) : null,
      rebuilt: store.meta("rebuilt") ?? null,
      dbPath: store.path,
      dbBytes: fileBytes(store.path) + fileBytes(store.path + "-wal"),
      daemon: ctx.daemon ?? null,
    };
  },
});
