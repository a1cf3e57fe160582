/**
 * The commits `git log --numstat -M [flags] REV -- PATH…` lists, with their files: from the index,
 * asking git only for what the index cannot know cheaply (which side branches git's history
 * simplification prunes under paths, --first-parent and --not walks, merge diffs, renames across the paths' edge).
 */
import { gitText } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { LogChangeRow, LogCommitRow } from "../../store/log-store.ts";
import type { QueryContext } from "../context.ts";
import type { LogCommit, LogFile } from "../log.ts";
import { HistoryNotYet, iso, shortSha } from "./common.ts";
import { diffFiles, fileOut } from "./repo-diff.ts";
import { fillMergePaths } from "../../index/merge-paths.ts";

export interface LogFilter {
  /** Repository-relative files or folders; empty for the whole repository. */
  paths: string[];
  limit: number;
  author?: string;
  /** Committer time bounds, Unix seconds. */
  since?: number;
  before?: number;
  /** A full sha whose history is left out. */
  not?: string;
  firstParent?: boolean;
  noMerges?: boolean;
  fullDiff?: boolean;
}

/** Files listed per commit. */
const MAX_FILES = 10;
/** Commits read from the index per step of a walk. */
const CHUNK = 256;

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function under(path: string, paths: string[]): boolean {
  return paths.some((p) => path === p || path.startsWith(p + "/"));
}

function isMerge(c: LogCommitRow): boolean {
  return c.parents.includes(" ");
}

/** True when git log's own filters (author, dates, merges) keep the commit. */
function kept(c: LogCommitRow, f: LogFilter): boolean {
  if (f.noMerges && isMerge(c)) return false;
  if (f.since !== undefined && c.commit_time < f.since) return false;
  if (f.before !== undefined && c.commit_time > f.before) return false;
  if (f.author !== undefined && !asciiLower(`${c.author} <${c.email}>`).includes(asciiLower(f.author))) return false;
  return true;
}

function touches(changes: LogChangeRow[] | undefined, paths: string[]): boolean {
  return (changes ?? []).some((ch) => under(ch.path, paths) || (ch.old_path !== null && under(ch.old_path, paths)));
}

function byCommit(rows: LogChangeRow[]): Map<number, LogChangeRow[]> {
  const out = new Map<number, LogChangeRow[]>();
  for (const r of rows) {
    const list = out.get(r.commit_id);
    if (list) list.push(r);
    else out.set(r.commit_id, [r]);
  }
  return out;
}

/** Walks the scope in git log's order: every commit, or those git's filters keep. */
function walkAll(ctx: QueryContext, scope: Scope, f: LogFilter): LogCommitRow[] {
  const found: LogCommitRow[] = [];
  const plain = f.author === undefined && f.since === undefined && f.before === undefined && !f.noMerges;
  let after = -(2 ** 53);
  for (;;) {
    const rows = ctx.index.store.log.walk(scope.table, after, plain ? f.limit + 1 - found.length : CHUNK);
    if (rows.length === 0) break;
    after = rows.at(-1)!.seq;
    for (const c of rows) {
      if (!kept(c, f)) continue;
      found.push(c);
      if (found.length > f.limit) return found;
    }
  }
  // The end of a first index's prefix is not the end of history.
  if (scope.prefix !== undefined) throw new HistoryNotYet();
  return found;
}

/**
 * git log [-- PATH…] with its default history simplification, walked over the index: from the
 * start commit along parents, in the scope's order; a commit that leaves the paths as its parent
 * had them (TREESAME) is not shown, and a merge TREESAME to a parent is followed only into the
 * first such parent (its other side branches are never walked). A merge's changes against each
 * parent are asked of git once per merge and kept. Returns undefined where the scope's order is
 * not the walk's (clock skew puts a parent before a child): git then answers.
 */
async function walkPaths(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<LogCommitRow[] | undefined> {
  const { log } = ctx.index.store;
  const found: LogCommitRow[] = [];
  const wanted = new Set<string>([scope.commit]);
  const seen = new Set<string>();
  let after = -(2 ** 53);
  // Past two chunks the paths are quiet: the commits touching them, found once, beat reading every commit's changes.
  let touching: Set<number> | undefined;
  const all = f.paths.length === 0;
  for (let chunk = 0; wanted.size > 0; chunk++) {
    if (chunk === 2 && !all) touching = log.touching(f.paths);
    const rows = log.walk(scope.table, after, chunk === 0 ? 4 * f.limit + 16 : chunk === 1 ? CHUNK : 4 * CHUNK);
    if (rows.length === 0) break;
    after = rows.at(-1)!.seq;
    const merges = all ? [] : rows.filter(isMerge);
    if (merges.length > 0) {
      const done = log.mergesDiffed(merges.map((m) => m.id));
      const missing = merges.filter((m) => !done.has(m.id));
      if (missing.length > 0) await fillMergePaths(ctx.index, missing);
    }
    const changes = touching || all ? undefined : byCommit(log.changesOf(rows.filter((c) => !isMerge(c)).map((c) => c.id)));
    for (const c of rows) {
      seen.add(c.sha);
      if (!wanted.delete(c.sha)) continue;
      const parents = c.parents.split(" ").filter(Boolean);
      let follow: string[];
      let shown: boolean;
      if (all) {
        follow = parents;
        shown = true;
      } else if (parents.length > 1) {
        const differs = new Set<number>();
        for (const r of log.mergePaths(c.id)) if (under(r.path, f.paths)) differs.add(r.parent);
        const same = parents.findIndex((_, i) => !differs.has(i));
        follow = same >= 0 ? [parents[same]!] : parents;
        shown = same < 0;
      } else {
        follow = parents;
        shown = touching ? touching.has(c.id) : touches(changes!.get(c.id), f.paths);
      }
      // git stops walking a line at a commit older than --since.
      if (f.since !== undefined && c.commit_time < f.since) continue;
      for (const p of follow) {
        if (seen.has(p)) return undefined;
        wanted.add(p);
      }
      if (shown && kept(c, f)) {
        found.push(c);
        if (found.length > f.limit) return found;
      }
    }
  }
  if (scope.prefix !== undefined && wanted.size > 0) throw new HistoryNotYet();
  return found;
}

/** The commits as git lists them (git log --format=%H with the same flags), with their index rows. */
async function walkGit(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<LogCommitRow[]> {
  const args = ["log", "--format=%H", "-n", String(f.limit + 1), "--use-mailmap"];
  if (f.firstParent) args.push("--first-parent");
  if (f.noMerges) args.push("--no-merges");
  if (f.since !== undefined) args.push(`--max-age=${f.since}`);
  if (f.before !== undefined) args.push(`--min-age=${f.before}`);
  if (f.author !== undefined) args.push("-i", "-F", `--author=${f.author}`);
  args.push(scope.commit);
  if (f.not !== undefined) args.push("--not", f.not);
  const shas = (await gitText([...args, "--", ...f.paths], ctx.index.git)).split("\n").filter(Boolean);
  const rows = new Map(ctx.index.store.log.bySha(shas).map((r) => [r.sha, r]));
  // During a first index the commits git names may not be indexed yet.
  if (rows.size < shas.length) throw new HistoryNotYet();
  return shas.map((s) => rows.get(s)!);
}

/** The commits of `git log [flags] REV -- PATH…`, newest first, each with its files and +/-, and whether more follow. */
export async function logCommits(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<{ commits: LogCommit[]; truncated: boolean }> {
  const simple = f.not === undefined && !f.firstParent;
  // Without paths every commit is shown; only --since ends lines of history early, which the parent walk sees.
  const walk = f.paths.length === 0 && f.since === undefined ? walkAll : walkPaths;
  const found = (simple ? await walk(ctx, scope, f) : undefined) ?? (await walkGit(ctx, scope, f));
  const rows = found.slice(0, f.limit);
  await ctx.index.ensureChurn(rows.filter((c) => !isMerge(c)).map((c) => c.sha));
  const changes = byCommit(ctx.index.store.log.changesOf(rows.filter((c) => !isMerge(c)).map((c) => c.id)));
  const commits: LogCommit[] = [];
  for (const c of rows) commits.push(await commitOut(ctx, c, changes.get(c.id) ?? [], f));
  return { commits, truncated: found.length > f.limit };
}

/** A commit's files as git log --numstat -M -- PATH… prints them. */
async function filesOf(ctx: QueryContext, c: LogCommitRow, changes: LogChangeRow[], f: LogFilter): Promise<LogFile[]> {
  const limited = f.paths.length > 0 && !f.fullDiff;
  const parents = c.parents.split(" ").filter(Boolean);
  if (parents.length > 1) {
    if (!f.firstParent) return [];
    return (await diffFiles(ctx, parents[0]!, c.sha, limited ? f.paths : [])).map(fileOut);
  }
  if (!limited) return changes.map((ch) => fileOut({ ...ch, oldPath: ch.old_path }));
  const mine = changes.filter((ch) => under(ch.path, f.paths) || (ch.old_path !== null && under(ch.old_path, f.paths)));
  // A rename across the paths' edge is an add or a delete to git, whose rename detection sees only the paths.
  if (mine.some((ch) => ch.old_path !== null && under(ch.path, f.paths) !== under(ch.old_path, f.paths)))
    return (await diffFiles(ctx, parents[0] ?? null, c.sha, f.paths)).map(fileOut);
  return mine.map((ch) => fileOut({ ...ch, oldPath: ch.old_path }));
}

async function commitOut(ctx: QueryContext, c: LogCommitRow, changes: LogChangeRow[], f: LogFilter): Promise<LogCommit> {
  const files = await filesOf(ctx, c, changes, f);
  let additions = 0;
  let deletions = 0;
  for (const file of files) {
    additions += file.additions ?? 0;
    deletions += file.deletions ?? 0;
  }
  const out: LogCommit = { sha: shortSha(c.sha), author: c.author, time: iso(c.time), subject: c.subject, additions, deletions, files: files.slice(0, MAX_FILES), filesTotal: files.length };
  if (isMerge(c)) return { sha: out.sha, author: out.author, time: out.time, subject: out.subject, merge: true, additions, deletions, files: out.files, filesTotal: out.filesTotal };
  return out;
}
