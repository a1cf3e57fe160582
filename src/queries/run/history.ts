/** How history is answered: the file's changes from the index, following renames and copies, with churn filled on demand. */
import { LoreError } from "../../errors.ts";
import { gitText } from "../../git/run.ts";
import type { PathChangeRow } from "../../store/history-store.ts";
import { HistoryNotYet, iso, neverCommitted, repoPath } from "./common.ts";
import type { QueryContext } from "../context.ts";
import { fileChanges } from "./follow.ts";
import type { HISTORY_ARGS, HistoryCommit, HistoryOutput } from "../history.ts";
import type { Input } from "../define.ts";

/** Without --follow, git's history simplification decides which commits show; the index has no merge diffs, so git lists them. */
async function simplifiedChanges(ctx: QueryContext, commit: string, path: string, limit: number): Promise<PathChangeRow[]> {
  const shas = (await gitText(["log", "--format=%H", "-n", String(limit + 1), commit, "--", path], ctx.index.git)).split("\n").filter(Boolean);
  const rows: PathChangeRow[] = [];
  for (const sha of shas) {
    const row = ctx.index.store.history.changeIn(sha, path);
    if (row) rows.push(row);
    else {
      // A merge git shows because it differs from every parent: it has no diff of its own in the index.
      const c = ctx.index.store.history.commitBySha(sha);
      if (c) rows.push({ seq: 0, commit_id: c.id, sha, author: c.author, email: c.email, time: c.time, subject: c.subject, churn: 1, status: "M", path, old_path: null, additions: null, deletions: null });
    }
  }
  return rows;
}

export async function run(ctx: QueryContext, input: Input<typeof HISTORY_ARGS>): Promise<HistoryOutput> {
  const scope = await ctx.index.scope(input.until);
  const path = repoPath(ctx, input.path);
  if (path === "") throw new LoreError("NOT_A_FILE", "history needs a file path, not the repository root.");
  if (ctx.index.store.history.pathId(path) === undefined) {
    if (scope.prefix !== undefined) throw new HistoryNotYet();
    const under = ctx.index.store.history.pathsUnder(path + "/");
    if (under.length > 0) throw new LoreError("NOT_A_FILE", `${path} is a folder; history needs a file inside it.`);
    throw neverCommitted(ctx, path);
  }
  // From the newest commits of a first index, only a list that runs past the limit is whole
  // (--no-follow asks git for commits the index may not hold yet; prefix 0: another commit's history is being indexed).
  if (scope.prefix !== undefined && (scope.prefix === 0 || !input.follow)) throw new HistoryNotYet();
  let rows = input.follow ? await fileChanges(ctx, scope.table, path, input.limit, true) : await simplifiedChanges(ctx, scope.commit, path, input.limit);
  const truncated = rows.length > input.limit;
  if (scope.prefix !== undefined && !truncated) throw new HistoryNotYet();
  rows = rows.slice(0, input.limit);
  if (rows.some((r) => r.churn === 0)) {
    await ctx.index.ensureChurn(rows.filter((r) => r.churn === 0).map((r) => r.sha));
    rows = rows.map((r) => (r.churn === 0 ? { ...r, ...pickChurn(ctx, r) } : r));
  }
  const commits = rows.map((r) => {
    const c: HistoryCommit = { sha: r.sha, author: r.author, email: r.email, time: iso(r.time), subject: r.subject, additions: r.additions, deletions: r.deletions, status: r.status, path: r.path };
    if (r.old_path && (r.status === "R" || r.status === "C")) c.oldPath = r.old_path;
    return c;
  });
  return { repo: ctx.index.repo.root, path, rev: scope.commit, commits, truncated };
}

function pickChurn(ctx: QueryContext, r: PathChangeRow): Pick<PathChangeRow, "additions" | "deletions"> {
  const fresh = ctx.index.store.history.changeIn(r.sha, r.path);
  return { additions: fresh?.additions ?? null, deletions: fresh?.deletions ?? null };
}
