/** owners: who owns what under a path (main author per file or folder, knowledge islands) and its truck factor. */
import { agentSharesSchema } from "./provenance.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";
import { defineQuery, type Args } from "./define.ts";
import { IGNORE_REVS } from "./shared-args.ts";

export interface OwnersOutput {
  repo: string;
  path: string;
  rev: string;
  /** Text lines (blame) and files under the path. */
  lines: number;
  files: number;
  /** The fewest authors whose leaving orphans more than half the files (degree-of-authorship), and who they are. */
  /** null: a shallow clone where every file was there at its boundary, so no file's authors are known. */
  truckFactor: number | null;
  truckAuthors: { author: string; email: string }[];
  /** The people who wrote the path's lines, most first (up to 3): who owns it. */
  authors: { author: string; email: string; lines: number; share: number }[];
  /** Lines of commits a coding agent is credited with, by agent (the people who wrote them keep them): absent when none. */
  agents?: Record<string, { lines: number; share: number }>;
  /** CODEOWNERS' owners of the path's files (most files first) and those of them who wrote none of its lines (teams are not checked); absent without CODEOWNERS. */
  declared?: string[];
  drift?: string[];
  /** The CODEOWNERS file read, and its lines that could not be read ("line N: why"). */
  codeowners?: string;
  codeownersErrors?: string[];
  /** With `by`: a row per folder or file below the path. */
  results?: { path: string; files: number; lines: number; main?: { author: string; email: string; share: number; coLines?: number }; authors: number; island: boolean; agents?: Record<string, { lines: number; share: number }>; declared?: string[]; drift?: string[] }[];
  truncated: boolean;
  /** "path: why" of each file git could not blame, left out of the counts. */
  leftOut?: string[];
  /** Lines from before a shallow clone's history (git pins them on its boundary commit): in `lines`, under nobody's name. */
  beforeHistory?: number;
  historyStops?: HistoryStops;
}

export const OWNERS_ARGS = {
  path: { type: "string", positional: true, description: "A folder or file." },
  // (The tool's description says it: by folder|file.)
  by: { type: "string", description: 'Rows per "folder" or "file".', agent: "" },
  limit: { type: "integer", default: 20, min: 1, max: 1000, short: "n", cliOnly: true, description: "At most this many rows (default 20)." },
  ignoreRevs: { ...IGNORE_REVS, cliOnly: true },
  all: { type: "boolean", default: false, cliOnly: true, description: "Count lockfiles, generated and vendored files too." },
} as const satisfies Args;

export const ownersQuery = defineQuery({
  name: "owners",
  continues: true,
  summary: "Who owns what under PATH: main author per folder or file, islands, truck factor",
  description:
    "PATH's top authors by lines, truck factor; by folder|file: main author per row, islands (≥ 80 %).",
  args: OWNERS_ARGS,
  output: (z) => {
    const person = { author: z.string(), email: z.string() };
    return z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      lines: z.number().int(),
      files: z.number().int(),
      truckFactor: z.number().int().nullable(),
      truckAuthors: z.array(z.object(person)),
      authors: z.array(z.object({ ...person, lines: z.number().int(), share: z.number() })),
      agents: agentSharesSchema(z),
      declared: z.array(z.string()).optional(),
      drift: z.array(z.string()).optional(),
      codeowners: z.string().optional(),
      codeownersErrors: z.array(z.string()).optional(),
      results: z.array(
        z.object({
          path: z.string(),
          files: z.number().int(),
          lines: z.number().int(),
          main: z.object({ ...person, share: z.number(), coLines: z.number().int().optional() }).optional(),
          authors: z.number().int(),
          island: z.boolean(),
          agents: agentSharesSchema(z),
          declared: z.array(z.string()).optional(),
          drift: z.array(z.string()).optional(),
        }),
      ).optional(),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      beforeHistory: z.number().int().optional(),
      historyStops: historyStopsSchema(z),
    });
  },
  load: () => import("./run/owners.ts"),
});
