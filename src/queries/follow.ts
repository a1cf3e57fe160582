/** Walks a file's changes back through renames and copies the way `git log --follow` does. */
import { LOG_FORMAT, parseRawLog } from "../git/parse-log.ts";
import { git } from "../git/run.ts";
import type { PathChangeRow } from "../store/history-store.ts";
import type { QueryContext } from "./context.ts";

/**
 * Where --follow goes on from a commit that adds `path`. git looks for a copy among
 * all files of the parent (find-copies-harder), which the index does not keep, so ask
 * git once for that commit and remember the answer.
 */
async function originOfAddition(ctx: QueryContext, row: PathChangeRow): Promise<{ status: string; oldPath: string | null }> {
  const { store } = ctx.index;
  const pathId = store.history.pathId(row.path)!;
  const known = store.tree.followOrigin(row.commit_id, pathId);
  if (known) return known;
  const out = await git(["log", "-1", "--follow", "--raw", "-z", "--no-abbrev", "--no-ext-diff", `--format=${LOG_FORMAT}`, row.sha, "--", row.path], ctx.index.git);
  const change = parseRawLog(out)[0]?.changes.find((c) => c.path === row.path);
  const origin = change && (change.status === "C" || change.status === "R") && change.oldPath ? { status: change.status, oldPath: change.oldPath } : { status: "A", oldPath: null };
  store.transaction(() => store.tree.saveFollowOrigin(row.commit_id, pathId, origin.status, origin.oldPath));
  return origin;
}

/** Up to `limit` changes of `path` in scope, newest first, following renames and copies when `follow`. Returns one more than asked when there are more. */
export async function fileChanges(ctx: QueryContext, scopeTable: string, path: string, limit: number, follow: boolean): Promise<PathChangeRow[]> {
  const { history } = ctx.index.store;
  const out: PathChangeRow[] = [];
  let name = path;
  let after: number | null = null;
  for (;;) {
    const pid = history.pathId(name);
    if (pid === undefined) return out;
    const rows = history.pathChanges(scopeTable, pid, after, limit + 1 - out.length);
    let switched = false;
    for (const row of rows) {
      if (follow && row.status === "A") {
        const origin = await originOfAddition(ctx, row);
        if (origin.oldPath) {
          row.status = origin.status;
          row.old_path = origin.oldPath;
        }
      }
      out.push(row);
      if (out.length > limit) return out;
      if (follow && (row.status === "R" || row.status === "C") && row.old_path) {
        name = row.old_path;
        after = row.seq;
        switched = true;
        break;
      }
    }
    if (!switched) return out;
  }
}
