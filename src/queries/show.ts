/** show: one commit (message, parents, files with +/-, the patch of named files), or a file as it was (REV:PATH). */
import { provenanceFields } from "./provenance.ts";
import { defineQuery, type Args } from "./define.ts";
import { fileShape, type LogFile } from "./log.ts";
import { historyStopsSchema, type HistoryStops } from "./history-stops.ts";

export interface ShowCommitOutput {
  repo: string;
  sha: string;
  parents: string[];
  author: string;
  email: string;
  time: string;
  message: string;
  pr?: number;
  release?: string;
  agent?: string;
  /** What says the agent made it: the trailer or line as written, the author, or the git note's ref. */
  agentSignal?: string;
  against?: "first-parent";
  files: LogFile[];
  filesTotal: number;
  patch?: string;
  truncated: boolean;
  /** "path: why" for each listed file whose content git cannot read (listed without +/-, not as binary). */
  leftOut?: string[];
  /** The commit is a shallow clone's boundary: git shows it against nothing (no parents here), so its files were there before it. */
  historyStops?: HistoryStops;
}

export interface ShowFileOutput {
  repo: string;
  rev: string;
  path: string;
  lines: number;
  range: [number, number];
  text: string;
  truncated: boolean;
}

export type ShowOutput = ShowCommitOutput | ShowFileOutput;

export const SHOW_ARGS = {
  rev: { type: "string", required: true, positional: true, text: true, description: "A commit (any revision git takes), or REV:PATH for a file as it was.", agent: "" },
  paths: { type: "strings", positional: true, description: "Files or folders whose patch to include.", agent: "" },
  patch: { type: "boolean", description: "Include the patch of every file.", agent: "" },
  diffLines: { type: "integer", default: 200, description: "Cut the patch after this many lines (default 200).", agent: "" },
  startLine: { type: "integer", description: "REV:PATH: the first line to show.", agent: "" },
  endLine: { type: "integer", description: "REV:PATH: the last line to show.", agent: "" },
} as const satisfies Args;

export const showQuery = defineQuery({
  name: "show",
  continues: true,
  summary: "One commit: message, parents, files with +/-, patch of named files; or REV:PATH, a file as it was",
  description: "git show REV [-- PATHS]: message, files with +/-, patch of paths (or all). rev \"REV:PATH\": the file then.",
  common: ["repo"],
  args: SHOW_ARGS,
  needsHistory: false,
  textForModel: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      sha: z.string().optional(),
      parents: z.array(z.string()).optional(),
      author: z.string().optional(),
      email: z.string().optional(),
      time: z.string().optional(),
      message: z.string().optional(),
      ...provenanceFields(z),
      agentSignal: z.string().optional(),
      against: z.literal("first-parent").optional(),
      files: z.array(fileShape(z)).optional(),
      filesTotal: z.number().int().optional(),
      patch: z.string().optional(),
      rev: z.string().optional(),
      path: z.string().optional(),
      lines: z.number().int().optional(),
      range: z.tuple([z.number().int(), z.number().int()]).optional(),
      text: z.string().optional(),
      truncated: z.boolean(),
      leftOut: z.array(z.string()).optional(),
      historyStops: historyStopsSchema(z),
    }),
  load: () => import("./run/show.ts"),
});
