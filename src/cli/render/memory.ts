/** Human rendering of lore's memory of the work tree: snapshot, snapshots, changes, restore. */
import type { ChangesOutput } from "../../queries/changes.ts";
import type { RestoreOutput } from "../../queries/restore.ts";
import type { SnapshotOutput } from "../../queries/snapshot.ts";
import type { SnapshotsOutput } from "../../queries/snapshots.ts";
import type { Style } from "../style.ts";
import { table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderSnapshot(r: SnapshotOutput, s: Style): string {
  return r.created ? `snapshot ${s.yellow(r.id)} ${r.time}: ${plural(r.files, "file")} changed` : `nothing changed since snapshot ${s.yellow(r.id)} (${r.time})`;
}

export function renderSnapshots(r: SnapshotsOutput & { continue?: string }, s: Style, w: Words): string {
  if (r.snapshots.length === 0) return s.dim(`no snapshots${r.path ? ` that changed ${r.path}` : ""} yet: lore snapshot takes one`);
  const rows = table(r.snapshots.map((x) => [s.yellow(x.id), x.time, plural(x.files, "file"), x.message ?? ""]), new Set([2]));
  return [...rows, ...moreLine(w, plural(r.total - r.snapshots.length, "more snapshot", "more snapshots"), r, ["limit", r.snapshots.length * 2]).map(s.dim)].join("\n");
}

export function renderChanges(r: ChangesOutput & { after?: number; continue?: string }, s: Style, w: Words): string {
  const rows = table(r.files.map((f) => [f.status ?? "M", f.oldPath ? `${f.oldPath} → ${f.path}` : f.path, f.binary ? "binary" : `${s.green(`+${f.additions}`)} ${s.red(`-${f.deletions}`)}`]));
  const patch = r.patch ? [r.patch.replace(/\n$/, "")] : [];
  // A continued page: the next files and the patch's next part, nothing of the first page again.
  if (r.after !== undefined) return [...rows, ...(rows.length && patch.length ? [""] : []), ...patch].join("\n");
  const since = r.since.time ? `snapshot ${s.yellow(r.since.id)} (${r.since.time})` : r.since.id;
  const head = `since ${since}, now ${s.yellow(r.now)}:`;
  const listed = r.snapshots ? ["", renderSnapshots({ repo: r.repo, snapshots: r.snapshots, total: r.snapshots.length, truncated: false }, s, w)] : [];
  if (r.files.length === 0) return [`${head} ${s.dim("no changes")}`, ...listed].join("\n");
  const more = r.filesTotal > r.files.length ? [s.dim(`… ${plural(r.filesTotal - r.files.length, "more file", "more files")}`)] : [];
  const lines = w.set("diffLines");
  const cut = r.truncated && r.patch && !r.continue ? [s.dim(`… patch cut${lines ? `: raise ${lines}` : ": name fewer paths"}`)] : [];
  return [head, ...rows, ...more, ...(patch.length ? ["", ...patch] : []), ...cut, ...listed].join("\n");
}

export function renderRestore(r: RestoreOutput, s: Style, w: Words): string {
  return [
    ...r.restored.map((p) => `restored ${p}`),
    ...r.removed.map((p) => `removed  ${p}`),
    s.dim(`from snapshot ${r.from.id} (${r.from.time}); to undo: ${w.ask("restore")} the same paths with ${w.set("from", r.backup)}`),
  ].join("\n");
}
