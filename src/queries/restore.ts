/** restore: writes named files back from a snapshot, after snapshotting what it overwrites. */
import { defineQuery, type Args } from "./define.ts";

export interface RestoreOutput {
  repo: string;
  from: { id: string; time: string };
  backup: string;
  restored: string[];
  removed: string[];
}

export const RESTORE_ARGS = {
  paths: { type: "strings", required: true, positional: true, description: "Files or folders." },
  from: { type: "string", required: true, description: "Snapshot id." },
} as const satisfies Args;

export const restoreQuery = defineQuery({
  name: "restore",
  summary: "Write files back from a snapshot (after a snapshot of what it overwrites)",
  description: "Writes files back as snapshot `from` had them (deletes those it lacked); restore `backup` to undo.",
  args: RESTORE_ARGS,
  common: ["repo"],
  otherRepos: false,
  needsIndex: false,
  writes: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      from: z.object({ id: z.string(), time: z.string() }),
      backup: z.string(),
      restored: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  load: () => import("./run/restore.ts"),
});
