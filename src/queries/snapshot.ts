/** snapshot: records the work tree as it is now in lore's memory (not in the repository). */
import { defineQuery, type Args } from "./define.ts";

export interface SnapshotOutput {
  repo: string;
  id: string;
  time: string;
  message?: string;
  files: number;
  created: boolean;
}

export const SNAPSHOT_ARGS = {
  message: { type: "string", short: "m", description: "A note to find it by." },
} as const satisfies Args;

export const snapshotQuery = defineQuery({
  name: "snapshot",
  summary: "Record the work tree now (tracked and untracked files) in lore's memory",
  description: "Records the work tree in lore's own store; nothing is written to the repository.",
  args: SNAPSHOT_ARGS,
  common: ["repo"],
  otherRepos: false,
  needsIndex: false,
  // MCP: lore_changes takes one before it answers.
  mcp: false,
  output: (z) => z.object({ repo: z.string(), id: z.string(), time: z.string(), message: z.string().optional(), files: z.number().int(), created: z.boolean() }),
  load: () => import("./run/snapshot.ts"),
});
