/** snapshots: lore's snapshots of the work tree, newest first. */
import { defineQuery, type Args } from "./define.ts";

export interface SnapshotsOutput {
  repo: string;
  path?: string;
  snapshots: { id: string; time: string; message?: string; files: number }[];
  total: number;
  truncated: boolean;
}

export const SNAPSHOTS_ARGS = {
  path: { type: "string", positional: true, description: "Only snapshots that changed this file or folder." },
  limit: { type: "integer", short: "n", default: 20, min: 1, max: 1000, description: "How many (default 20)." },
} as const satisfies Args;

export const snapshotsQuery = defineQuery({
  name: "snapshots",
  summary: "lore's snapshots of the work tree, newest first",
  description: "Snapshots of the work tree between commits: id, time, files changed.",
  args: SNAPSHOTS_ARGS,
  common: ["repo"],
  otherRepos: false,
  needsIndex: false,
  // MCP: lore_changes snapshots the work tree and names the snapshots it compares.
  mcp: false,
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string().optional(),
      snapshots: z.array(z.object({ id: z.string(), time: z.string(), message: z.string().optional(), files: z.number().int() })),
      total: z.number().int(),
      truncated: z.boolean(),
    }),
  load: () => import("./run/snapshots.ts"),
});
