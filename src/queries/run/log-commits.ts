/**
 * The commits `git log --numstat -M [flags] REV -- PATH…` lists, with their files: from the index,
 * asking git only for what the index cannot know cheaply (what a merge changed against each parent,
 * once per merge; --not walks; a merge's files under --first-parent; renames across the paths' edge).
 */
import { familyFor, provenanceOf } from "./provenance.ts";
import { ignoredRevs } from "./ignored-revs.ts";
import { gitText } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { LogChangeRow, LogCommitRow } from "../../store/log-store.ts";
import type { QueryContext } from "../context.ts";
import type { LogCommit, LogFile } from "../log.ts";
import { HistoryNotYet, isUnder, iso, shortSha } from "./common.ts";
import { diffFiles, diffFilesMany, fileOut } from "./repo-diff.ts";
import { unreadableInList } from "./show-unreadable.ts";
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
  return paths.some((p) => isUnder(path, p));
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
async function walkParents(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<LogCommitRow[] | undefined> {
  const { log } = ctx.index.store;
  const found: LogCommitRow[] = [];
  const wanted = new Set<string>([scope.commit]);
  const seen = new Set<string>();
  let after = -(2 ** 53);
  // A busy path fills its answer in the newest commits: read their changes. A quiet one (past the
  // first 1,000 commits walked) is better served by the commits touching it, found once.
  let touching: Set<number> | undefined;
  const all = f.paths.length === 0;
  let walked = 0;
  for (let size = 4 * f.limit + 16; wanted.size > 0; ) {
    if (walked >= 1000 && !all && touching === undefined) touching = log.touching(f.paths);
    const rows = log.walk(scope.table, after, size);
    walked += rows.length;
    if (rows.length === 0) break;
    after = rows.at(-1)!.seq;
    const merges = all ? [] : rows.filter(isMerge);
    // What a merge changed against its first parent is all a walk needs where that leaves the paths
    // alone; against its other parents (often long: the main line since the branch began) only where not.
    const differs = new Map<number, Set<number>>();
    if (merges.length > 0) {
      await fillMergePaths(ctx.index, merges, 1);
      for (const m of merges) differs.set(m.id, log.mergeDiffers(m.id, f.paths));
      const more = f.firstParent ? [] : merges.filter((m) => differs.get(m.id)!.has(0));
      if (more.length > 0) {
        await fillMergePaths(ctx.index, more);
        for (const m of more) differs.set(m.id, log.mergeDiffers(m.id, f.paths));
      }
    }
    const changes = touching || all ? undefined : byCommit(log.changesOf(rows.filter((c) => !isMerge(c)).map((c) => c.id)));
    for (const c of rows) {
      seen.add(c.sha);
      if (!wanted.delete(c.sha)) continue;
      const parents = c.parents.split(" ").filter(Boolean);
      let follow: string[];
      let shown: boolean;
      if (all) {
        follow = f.firstParent ? parents.slice(0, 1) : parents;
        shown = true;
      } else if (parents.length > 1) {
        const changed = differs.get(c.id)!;
        if (f.firstParent) {
          // --first-parent: a merge is compared with its first parent only.
          follow = parents.slice(0, 1);
          shown = changed.has(0);
        } else {
          const same = parents.findIndex((_, i) => !changed.has(i));
          follow = same >= 0 ? [parents[same]!] : parents;
          shown = same < 0;
        }
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
    // The next step: as many commits as the rate so far says the rest of the answer needs.
    const need = f.limit + 1 - found.length;
    size = Math.min(4 * CHUNK, found.length > 0 ? Math.ceil((need * walked * 1.25) / found.length) + 16 : 2 * size);
  }
  if (scope.prefix !== undefined && wanted.size > 0) throw new HistoryNotYet();
  return found;
}

/** The commits as git lists them (git log --format=%H with the same flags), with their index rows. */
async function walkGit(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<LogCommitRow[]> {
  // Paths are literal: a * or : in a name is just a character.
  const args = ["--literal-pathspecs", "log", "--format=%H", "-n", String(f.limit + 1), "--use-mailmap"];
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

/** The index rows of the commits `git log [flags] REV -- PATH…` lists, newest first, one more than `f.limit` when more follow. */
export async function logRows(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<LogCommitRow[]> {
  // Without paths every commit is shown, in the scope's order; paths, --since and --first-parent need the walk along parents.
  // --not REV needs what REV reaches, which the index does not keep: git lists the commits.
  const walk = f.paths.length === 0 && f.since === undefined && !f.firstParent ? walkAll : walkParents;
  return (f.not === undefined ? await walk(ctx, scope, f) : undefined) ?? (await walkGit(ctx, scope, f));
}

/** The commits of `git log [flags] REV -- PATH…`, newest first, each with its files and +/-, and whether more follow. */
export async function logCommits(ctx: QueryContext, scope: Scope, f: LogFilter): Promise<{ commits: LogCommit[]; truncated: boolean; leftOut: string[] }> {
  const found = await logRows(ctx, scope, f);
  const rows = found.slice(0, f.limit);
  await ctx.index.ensureChurn(rows.filter((c) => !isMerge(c)).map((c) => c.sha));
  const changes = byCommit(ctx.index.store.log.changesOf(rows.filter((c) => !isMerge(c)).map((c) => c.id)));
  // Under --first-parent a merge lists its change against the first parent: one git process for all of them.
  const merges = f.firstParent ? rows.filter(isMerge) : [];
  const mergeDiffs = await diffFilesMany(ctx, merges.map((m) => ({ parent: m.parents.split(" ")[0]!, sha: m.sha })), f.paths.length > 0 && !f.fullDiff ? f.paths : []);
  const mergeFiles = new Map(merges.map((m, i) => [m.sha, mergeDiffs[i]!.map(fileOut)]));
  const commits: LogCommit[] = [];
  // A file git cannot read has unknown counts, as a binary file has: it is left out, not called binary.
  const leftOut = new Set<string>();
  for (const c of rows) {
    const out = await commitOut(ctx, c, changes.get(c.id) ?? [], f, mergeFiles.get(c.sha));
    const unreadable = out.merge ? new Map<string, string>() : await unreadableInList(ctx, c.sha, out.files);
    for (const file of out.files) if (unreadable.has(file.path)) delete file.binary;
    for (const why of unreadable.values()) leftOut.add(why);
    commits.push(out);
  }
  return { commits, truncated: found.length > f.limit, leftOut: [...leftOut] };
}

/** A commit's files as git log --numstat -M -- PATH… prints them. */
async function filesOf(ctx: QueryContext, c: LogCommitRow, changes: LogChangeRow[], f: LogFilter, mergeFiles?: LogFile[]): Promise<LogFile[]> {
  const limited = f.paths.length > 0 && !f.fullDiff;
  const parents = c.parents.split(" ").filter(Boolean);
  if (parents.length > 1) return mergeFiles ?? [];
  if (!limited) return changes.map((ch) => fileOut({ ...ch, oldPath: ch.old_path }));
  const mine = changes.filter((ch) => under(ch.path, f.paths) || (ch.old_path !== null && under(ch.old_path, f.paths)));
  // A rename across the paths' edge is an add or a delete to git, whose rename detection sees only the paths.
  if (mine.some((ch) => ch.old_path !== null && under(ch.path, f.paths) !== under(ch.old_path, f.paths)))
    return (await diffFiles(ctx, parents[0] ?? null, c.sha, f.paths)).map(fileOut);
  return mine.map((ch) => fileOut({ ...ch, oldPath: ch.old_path }));
}

async function commitOut(ctx: QueryContext, c: LogCommitRow, changes: LogChangeRow[], f: LogFilter, mergeFiles?: LogFile[]): Promise<LogCommit> {
  const files = await filesOf(ctx, c, changes, f, mergeFiles);
  let additions = 0;
  let deletions = 0;
  for (const file of files) {
    additions += file.additions ?? 0;
    deletions += file.deletions ?? 0;
  }
  const marks = { ...provenanceOf(ctx, c.sha, familyFor(ctx, f.paths.length === 1 ? f.paths[0] : undefined)), ...(ignoredRevs(ctx)(c.sha) ? { ignored: true as const } : {}) };
  const out: LogCommit = { sha: shortSha(c.sha), author: c.author, time: iso(c.time), subject: c.subject, additions, deletions, files: files.slice(0, MAX_FILES), filesTotal: files.length, ...marks };
  if (isMerge(c)) return { sha: out.sha, author: out.author, time: out.time, subject: out.subject, merge: true, additions, deletions, files: out.files, filesTotal: out.filesTotal, ...marks };
  return out;
}
