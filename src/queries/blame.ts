/** blame: who last changed each line of a file, and in which commit. */
import { defineQuery, type Args } from "./define.ts";
import { FILE_PATH, IGNORE_REVS } from "./shared-args.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { agentSharesSchema, provenanceObject, type Provenance } from "./provenance.ts";

export interface BlameOutput {
  repo: string;
  path: string;
  rev: string;
  lines: number;
  range: [number, number];
  hunks: BlameHunk[];
  /** Each commit once, as [author, time, subject]: blame is a table, and keys repeated per commit were a fifth of its bytes. */
  commits: Record<string, BlameCommit>;
  /** Lines of the hunks sent whose commit credits a coding agent, and their share of those lines; absent when none. */
  agents?: Record<string, { lines: number; share: number }>;
  /** Commits where history stops (a shallow clone's edge), as git blame marks them with ^; absent when none. */
  boundary?: string[];
  /** The file on disk differs from HEAD's: lines are its own, and hunks with a null sha are not committed. */
  worktree?: true;
  /** A line's commit is a shallow clone's boundary: where history stops, and how to get the rest. */
  historyStops?: HistoryStops;
}

/** With the commit's provenance (pr, release, agent) as a fourth element where it has some. */
export type BlameCommit = [author: string, time: string, subject: string] | [author: string, time: string, subject: string, provenance: Provenance];

/** Lines start..end last changed by commit sha; origPath, origStart only when they came from another file. */
export type BlameHunk = [start: number, end: number, sha: string | null] | [start: number, end: number, sha: string, origPath: string, origStart: number];

export const BLAME_ARGS = {
  path: FILE_PATH,
  startLine: { type: "integer", description: "First line. CLI: -L START,END.", agent: "" },
  endLine: { type: "integer", description: "Last line.", agent: "" },
  function: { type: "string", cliOnly: true, description: "A function's lines, as git blame -L :NAME finds them (in the file on disk unless --until). CLI: -L :NAME." },
  ignoreRevs: IGNORE_REVS,
} as const satisfies Args;

export const blameQuery = defineQuery({
  name: "blame",
  summary: "Who last changed each line of a file, and in which commit",
  description:
    "git blame of the file on disk: hunks [start, end, sha (null: uncommitted), origPath?, origStart?]; commits {sha: [author, day, subject, {pr,release,agent}?]}.",
  args: BLAME_ARGS,
  needsHistory: false,
  readsDisk: () => true,
  // A first blame past its deadline sends the range's first hunks; continue gives the rest.
  continues: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      lines: z.number().int(),
      range: z.tuple([z.number().int(), z.number().int()]),
      hunks: z.array(z.union([z.tuple([z.number().int(), z.number().int(), z.string().nullable()]), z.tuple([z.number().int(), z.number().int(), z.string(), z.string(), z.number().int()])])),
      commits: z.record(z.string(), z.union([z.tuple([z.string(), z.string(), z.string()]), z.tuple([z.string(), z.string(), z.string(), provenanceObject(z)])])),
      agents: agentSharesSchema(z),
      boundary: z.array(z.string()).optional(),
      worktree: z.literal(true).optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/blame.ts"),
});
