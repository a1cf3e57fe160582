/** Walks a file's changes back through renames and copies the way `git log --follow` does. */
import { LOG_FORMAT, NUMSTAT_FORMAT, parseNumstatLog, parseRawLog } from "../../git/parse-log.ts";
import { LoreError } from "../../errors.ts";
import { git } from "../../git/run.ts";
import { isPartialClone } from "../../git/repo.ts";
import type { FollowOrigin, PathChangeRow } from "../../store/history-store.ts";
import type { QueryContext } from "../context.ts";

/**
 * How `git log --follow` shows the file `name` at a commit the index pairs differently, asked of
 * git once (its own walk, one commit long) and remembered. Where the commit adds or renames
 * `name`, git pairs the file alone with the most similar file of the parent (find-copies-harder),
 * where the index paired the whole commit at once (a source can go to another file there). Where
 * the commit renamed `name` away, git, whose path limit is `name`, sees it deleted: status D,
 * with its deletion's line counts.
 */
async function asGitShows(ctx: QueryContext, row: PathChangeRow, name: string): Promise<FollowOrigin> {
  const { history } = ctx.index.store;
  const removed = row.path !== name;
  const pathId = history.pathId(name)!;
  const known = history.followOrigin(row.commit_id, pathId);
  if (known) return known;
  // git's own --follow walk, one commit long: the change it shows there.
  let seen: PathChangeRow | undefined;
  try {
    [seen] = await gitFileChanges(ctx, row.sha, name, 0);
  } catch (err) {
    // git cannot read the file's content there (a damaged clone), or has not the commit (a shallow
    // clone below its boundary, an imported index's history): the index's pairing, not remembered.
    if (!(err instanceof LoreError && (err.code === "GIT_FAILED" || err.code === "BAD_REVISION"))) throw err;
    return removed ? { status: "D", oldPath: null, additions: null, deletions: null } : { status: row.status, oldPath: row.old_path, additions: row.additions, deletions: row.deletions };
  }
  const here = seen !== undefined && seen.sha === row.sha && seen.path === name;
  const copied = here && (seen!.status === "C" || seen!.status === "R") && seen!.old_path !== null;
  const origin: FollowOrigin = removed
    ? { status: "D", oldPath: null, additions: here ? seen!.additions : null, deletions: here ? seen!.deletions : null }
    : copied
      ? { status: seen!.status, oldPath: seen!.old_path, additions: seen!.additions, deletions: seen!.deletions }
      : { status: "A", oldPath: null, additions: null, deletions: null };
  ctx.index.store.transaction(() => history.saveFollowOrigin(row.commit_id, pathId, origin));
  return origin;
}

/**
 * Up to `limit` changes of `path` as of the scope's commit, newest first, following renames and
 * copies. Returns one more than asked when there are more. git's pathspec matches a folder of the
 * same name too: where any name followed was ever a folder, git's own walk answers (the index
 * keeps a file's changes by its exact name).
 */
export async function fileChanges(ctx: QueryContext, scope: { table: string; commit: string }, path: string, limit: number): Promise<PathChangeRow[]> {
  const { history } = ctx.index.store;
  const out: PathChangeRow[] = [];
  let name = path;
  let after: number | null = null;
  for (;;) {
    if (history.hasPathsUnder(name)) return gitFileChanges(ctx, scope.commit, path, limit);
    const pid = history.pathId(name);
    if (pid === undefined) return out;
    const rows = history.pathChanges(scope.table, pid, after, limit + 1 - out.length);
    let switched = false;
    for (const row of rows) {
      // A rename of `name` away, or an addition: what git's walk limited to `name` shows there.
      if (row.path !== name || row.status === "A" || row.status === "R") {
        const seen = await asGitShows(ctx, row, name);
        if (seen.status === "D") Object.assign(row, { status: "D", path: name, old_path: null, additions: seen.additions, deletions: seen.deletions, churn: 1 });
        else if (seen.oldPath) Object.assign(row, { status: seen.status, old_path: seen.oldPath, additions: seen.additions, deletions: seen.deletions, churn: 1 });
        else if (row.status === "R") Object.assign(row, { status: "A", old_path: null });
      }
      out.push(row);
      if (out.length > limit) return out;
      if ((row.status === "R" || row.status === "C") && row.old_path) {
        name = row.old_path;
        after = row.seq;
        switched = true;
        break;
      }
    }
    if (!switched) return out;
  }
}

/**
 * Up to `limit` + 1 changes of `path` as of `commit`, straight from `git log --follow`: how
 * history answers while a first index has not reached far enough back (a quiet file of a long
 * history). The same rows the index gives, read from git's own walk. Without `follow`, exactly
 * `git log -- PATH`: git's simplification of merges decides which commits show (a merge has no
 * diff of its own: status M, no line counts), and a rename into PATH is an addition.
 */
export async function gitFileChanges(ctx: QueryContext, commit: string, path: string, limit: number, follow = true): Promise<PathChangeRow[]> {
  // Commits listed without a change (no diff of their own) are dropped, which may leave fewer rows than asked while git has more: ask again for more.
  for (let want = limit + 1; ; want *= 4) {
    const { rows, commits } = await gitFileWalk(ctx, commit, path, want, follow);
    if (rows.length > limit || commits < want) return rows.slice(0, limit + 1);
  }
}

async function gitFileWalk(ctx: QueryContext, commit: string, path: string, count: number, follow: boolean): Promise<{ rows: PathChangeRow[]; commits: number }> {
  // A partial clone lacks old contents: exact renames only, and line counts where its blobs are here.
  const partial = isPartialClone(ctx.index.repo);
  const walk = ["log", ...(follow ? ["--follow", partial ? "-M100%" : "-M"] : []), "-z", "--no-ext-diff", "--no-textconv", "-n", String(count)];
  const [raw, stat] = await Promise.all([
    git([...walk, "--raw", "--no-abbrev", `--format=${LOG_FORMAT}`, commit, "--", path], ctx.index.git).then(parseRawLog),
    git([...walk, "--numstat", `--format=${NUMSTAT_FORMAT}`, commit, "--", path], ctx.index.git)
      .then(parseNumstatLog)
      .catch((err) => {
        if (partial) return [];
        throw err;
      }),
  ]);
  const numbers = new Map(stat.map((r) => [r.sha, r.entries]));
  const rows: PathChangeRow[] = [];
  // The name the file has in the commit at hand, older as renames are passed.
  let name = path;
  for (const c of raw) {
    // The one change git shows: the file under the name it had in that commit, else (git's pathspec
    // matches a folder of that name too, a file that replaced a folder or gave way to one) the first
    // file under the folder, as git lists it first.
    const change = follow ? (c.changes.find((x) => x.path === name) ?? c.changes[0]) : (c.changes[0] ?? { status: "M" as const, path, oldPath: undefined });
    if (!change) continue;
    if (follow && (change.status === "R" || change.status === "C") && change.oldPath) name = change.oldPath;
    const n = numbers.get(c.sha)?.find((e) => e.path === change.path);
    rows.push({
      seq: 0,
      commit_id: 0,
      sha: c.sha,
      author: c.author,
      email: c.email,
      time: c.time,
      subject: c.subject,
      status: change.status,
      path: change.path,
      old_path: change.oldPath ?? null,
      additions: n?.additions ?? null,
      deletions: n?.deletions ?? null,
      churn: 1,
    });
  }
  return { rows, commits: raw.length };
}
