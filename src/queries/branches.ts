/** branches: every local and remote-tracking branch against the default branch — how far apart, merged (also squashed or rebased), where checked out, made by an agent. */
import { defineQuery, type Args } from "./define.ts";

/** How a branch's changes reached the default branch: its tip is an ancestor; each commit's patch-id is there; its whole diff is one commit's there. */
export type MergedKind = "merge" | "rebase" | "squash";

export interface Branch {
  /** As git branch -a names it: feat/x, origin/feat/x. */
  name: string;
  remote?: true;
  sha: string;
  time: string;
  author: string;
  ahead: number;
  behind: number;
  merged?: MergedKind;
  /** The default branch's commit that holds a squashed or rebased branch (its newest such commit). */
  by?: string;
  /** The work tree that has it checked out. */
  worktree?: string;
  upstream?: string;
  /** Its upstream was deleted on the remote (git branch -vv: gone). */
  gone?: true;
  /** Which agent made it: from its name (claude/…) or a trailer of its commits. */
  agent?: string;
}

export interface BranchesOutput {
  repo: string;
  /** The branch the others are measured against: origin/HEAD's, else main, else master, else HEAD's. */
  default: string;
  /** Its commit, full. */
  rev: string;
  branches: Branch[];
  /** What to run to clean up the merged ones (lore runs none). */
  commands: string[];
  truncated: boolean;
  note?: string;
}

export const BRANCHES_ARGS = {
  stale: { type: "integer", min: 0, description: "Only branches whose last commit is at least this many days old.", agent: "Min days idle." },
  merged: { type: "boolean", description: "Only branches already in the default branch (merged, rebased or squashed).", agent: "" },
  agent: { type: "boolean", description: "Only branches an agent made.", agent: "" },
} as const satisfies Args;

export const branchesQuery = defineQuery({
  name: "branches",
  continues: true,
  summary: "Branches left lying around: ahead/behind the default branch, merged (squashed, rebased), worktree, gone upstream, agent-made",
  description: "Branches vs the default one: ahead/behind, merged (squash, rebase too), worktree, upstream gone, agent-made; cleanup commands.",
  common: ["repo"],
  args: BRANCHES_ARGS,
  needsIndex: false,
  // Refs and worktrees move without a commit.
  cacheable: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      default: z.string(),
      rev: z.string(),
      branches: z.array(
        z.object({
          name: z.string(),
          remote: z.literal(true).optional(),
          sha: z.string(),
          time: z.string(),
          author: z.string(),
          ahead: z.number().int(),
          behind: z.number().int(),
          merged: z.enum(["merge", "rebase", "squash"]).optional(),
          by: z.string().optional(),
          worktree: z.string().optional(),
          upstream: z.string().optional(),
          gone: z.literal(true).optional(),
          agent: z.string().optional(),
        }),
      ),
      commands: z.array(z.string()),
      truncated: z.boolean(),
      note: z.string().optional(),
    }),
  load: () => import("./run/branches.ts"),
});
