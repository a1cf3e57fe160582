/** changes: what the work tree changed since a snapshot or a time. */
import { defineQuery, type Args } from "./define.ts";
import type { ChangedFile } from "../memory/diff.ts";

export interface ChangesOutput {
  repo: string;
  since: { id: string; time?: string; message?: string };
  /** The snapshot of the work tree as it is now (taken unless nothing changed since the last). */
  now: string;
  paths: string[];
  files: ChangedFile[];
  filesTotal: number;
  patch?: string;
  /** With list: the newest snapshots (those that changed the paths), for since and lore_restore's from. */
  snapshots?: { id: string; time: string; message?: string; files: number }[];
  truncated: boolean;
}

export const CHANGES_ARGS = {
  since: { type: "string", date: "or-snapshot", description: "Snapshot id, 10m, 2h, yesterday; default: the last." },
  paths: { type: "strings", positional: true, description: "Only these.", agent: "" },
  patch: { type: "boolean", description: "Add the diff." },
  list: { type: "boolean", description: "List snapshots too." },
  diffLines: { type: "integer", default: 200, min: 1, max: 5000, cliOnly: true, description: "Cut the patch at this many lines (default 200)." },
} as const satisfies Args;

export const changesQuery = defineQuery({
  name: "changes",
  summary: "What the work tree changed since a snapshot or a time (uncommitted work included)",
  description:
    "What did I change: work-tree files with +/- since a snapshot or a time; snapshots it now (ids for lore_restore).",
  args: CHANGES_ARGS,
  common: ["repo"],
  otherRepos: false,
  needsIndex: false,
  // The work tree moves without a commit: its pages are bound to the whole answer.
  cacheable: false,
  continues: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      since: z.object({ id: z.string(), time: z.string().optional(), message: z.string().optional() }),
      now: z.string(),
      paths: z.array(z.string()),
      files: z.array(z.object({ path: z.string(), additions: z.number().int().optional(), deletions: z.number().int().optional(), status: z.string().optional(), oldPath: z.string().optional(), binary: z.boolean().optional() })),
      filesTotal: z.number().int(),
      patch: z.string().optional(),
      snapshots: z.array(z.object({ id: z.string(), time: z.string(), message: z.string().optional(), files: z.number().int() })).optional(),
      truncated: z.boolean(),
    }),
  load: () => import("./run/changes.ts"),
});
