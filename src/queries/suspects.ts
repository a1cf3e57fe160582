/** suspects: the commits that likely introduced a bug — from a fix (a commit or the uncommitted change), a stack trace, or lines that behave wrongly. */
import { defineQuery, type Args } from "./define.ts";

export interface Suspect {
  sha: string;
  author: string;
  time: string;
  subject: string;
  /** The asked lines it wrote, by path, in the numbering of `rev` (none for a commit that removed what a fix restores). */
  lines: Record<string, [number, number][]>;
  /** Why it is a suspect, in one line. */
  why: string;
}

export interface SuspectsOutput {
  repo: string;
  /** The commit the lines are read at: the fix's parent, or HEAD. */
  rev: string;
  /** The fix asked about, full. */
  fix?: string;
  suspects: Suspect[];
  truncated: boolean;
  note?: string;
}

export const SUSPECTS_ARGS = {
  rev: { type: "string", positional: true, text: true, revision: true, description: "The fix commit (default: your uncommitted change).", agent: "Fix commit (default: uncommitted change)." },
  path: { type: "string", positional: true, description: "A file whose lines behave wrongly (with -L).", agent: "" },
  startLine: { type: "integer", min: 1, description: "First line of PATH that behaves wrongly. CLI: -L START,END.", agent: "" },
  endLine: { type: "integer", min: 1, description: "Last line.", agent: "" },
  trace: { type: "string", description: "A stack trace or failing test's output (CLI: --trace FILE, or - for stdin).", agent: "Stack trace text." },
  bisectTimeout: { type: "integer", cliOnly: true, min: 1, default: 300, description: "Seconds each --bisect step may run (default 300)." },
  bisect: { type: "string", cliOnly: true, description: "Confirm the top suspects: run this shell command in throwaway checkouts of each suspect and its parent (exit 0 good, 125 skip, else bad)." },
} as const satisfies Args;

export const suspectsQuery = defineQuery({
  name: "suspects",
  continues: true,
  summary: "Which commits likely broke it: from a fix, your uncommitted change, a stack trace, or PATH -L A,B",
  description: "Commits that likely caused a bug, ranked: from a fix, a stack trace, or lines of path.",
  common: ["repo"],
  args: SUSPECTS_ARGS,
  needsHistory: false,
  // The uncommitted change moves without a commit.
  cacheable: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      rev: z.string(),
      fix: z.string().optional(),
      suspects: z.array(z.object({ sha: z.string(), author: z.string(), time: z.string(), subject: z.string(), lines: z.record(z.string(), z.array(z.tuple([z.number().int(), z.number().int()]))), why: z.string() })),
      truncated: z.boolean(),
      note: z.string().optional(),
    }),
  load: () => import("./run/suspects.ts"),
});
