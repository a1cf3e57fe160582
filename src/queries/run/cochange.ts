/**
 * How cochange is answered: for each input file, its newest commits (200 by default); every
 * other file of those commits scores Σ 2^(−i/50) / √(files − 1) over the shared commits (i = the
 * commit's rank among the input's, newest 0). Chosen on held-out history: `npm run bench:quality`.
 */
import { ignoredCommitIds } from "./ignored-revs.ts";
import { walkStops } from "./history-stops.ts";
import { LoreError } from "../../errors.ts";
import { gitText } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { FileWindowSpec, Touch } from "../../store/cochange-store.ts";
import { HistoryNotYet, iso, neverCommitted, parseSince, repoPath, round, treeAt } from "./common.ts";
import { noiseAmong } from "./noise-files.ts";
import { HALF_LIFE, type COCHANGE_ARGS, type CochangeOutput } from "../cochange.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

/** Partners judged at a time for noise: enough for a page of rows, one git check-attr. */
const BATCH = 64;

interface Partner {
  pathId: number;
  score: number;
  count: number;
  /** Indexes of the inputs it changed with. */
  with: Set<number>;
  path?: string;
}

/** The files changed in the work tree and the index against HEAD (read-only: git status takes no lock here). */
async function changedFiles(ctx: QueryContext): Promise<string[]> {
  // git status runs a clean filter on a file whose timestamps changed: a program, so off (run.ts turns them off for status).
  const out = await gitText(["status", "--porcelain", "-z", "--untracked-files=no", "--no-renames"], ctx.index.git);
  return [...new Set(out.split("\0").filter((e) => e.length > 3).map((e) => e.slice(3)))].sort();
}

export async function run(ctx: QueryContext, input: Input<typeof COCHANGE_ARGS>): Promise<CochangeOutput> {
  const given = input.paths ?? [];
  if (input.changed && given.length > 0) throw new LoreError("BAD_ARGUMENT", "Give files (PATH…) or --changed, not both.");
  if (!input.changed && given.length === 0) throw new LoreError("BAD_ARGUMENT", "cochange needs files (PATH…), or --changed for your uncommitted changes.");
  const scope = await ctx.index.scope(input.until);
  const limit = input.commits === "all" ? null : /^\d+$/.test(input.commits) && Number(input.commits) > 0 ? Number(input.commits) : undefined;
  if (limit === undefined) throw new LoreError("BAD_ARGUMENT", `--commits takes a positive number or "all", not "${input.commits}".`);
  const since = input.since === undefined ? null : await parseSince(ctx, input.since);
  const w: FileWindowSpec = { scope: scope.table, limit, since, maxFiles: input.maxFiles };
  const window = { ...(limit !== null ? { perFile: limit } : {}), ...(since !== null ? { since: iso(since) } : {}), maxFiles: input.maxFiles };
  const { history } = ctx.index.store;
  const empty = (paths: string[], note: string): CochangeOutput => ({ repo: ctx.index.repo.root, paths, rev: scope.commit, window, commits: 0, results: [], truncated: false, note });

  let paths: string[];
  let inputs: { path: string; pid: number }[];
  if (input.changed) {
    paths = await changedFiles(ctx);
    if (paths.length === 0) return empty(paths, "Nothing is changed in the work tree or the index against HEAD: no files to ask about.");
    inputs = paths.flatMap((path) => {
      const pid = history.pathId(path);
      return pid === undefined ? [] : [{ path, pid }];
    });
    if (inputs.length === 0) return empty(paths, "None of the changed files has history yet (all are new).");
  } else {
    paths = [...new Set(given.map((p) => repoPath(ctx, p)))];
    inputs = paths.map((path) => {
      const pid = history.pathId(path);
      if (path === "" || pid === undefined) throw neverCommitted(ctx, path);
      return { path, pid };
    });
  }
  const leaveOut = new Set(inputs.map((x) => x.pid));
  const leaveOutNames = new Set(paths);

  const store = ctx.index.store.cochange;
  // Each commit once, with the inputs it touched and their recency weight in it.
  const commits = new Map<number, { touch: Touch; weights: Map<number, number> }>();
  // A file's window that holds fewer commits than it may went on to the end of the clone's history.
  let toEnd = false;
  // Reformatting commits (.git-blame-ignore-revs) change everything together: out unless --all.
  const skip = new Set(ignoredCommitIds(ctx, input.all));
  inputs.forEach(({ pid }, k) => {
    const every = store.touches(w, pid);
    if (limit === null || every.length < limit) toEnd = true;
    const mine = skip.size ? every.filter((t) => !skip.has(t.commitId)) : every;
    // While a first index runs, a file's window is whole once its `limit` newest commits are in.
    if (scope.prefix !== undefined && (limit === null || every.length < limit)) throw new HistoryNotYet();
    mine.forEach((t, i) => {
      const c = commits.get(t.commitId) ?? { touch: t, weights: new Map<number, number>() };
      c.weights.set(k, 2 ** (-i / HALF_LIFE));
      commits.set(t.commitId, c);
    });
  });
  // (The boundary commit touches every file there: its window holds none, and still it reached where history stops.)
  if (commits.size === 0) return { ...empty(paths, since !== null ? "No commit since then touched these files." : "Every commit that touched these files changed more than maxFiles files."), ...(await walkStops(ctx, [], toEnd, since ?? undefined)) };

  const files = store.filesOf([...commits.keys()]);
  const partners = new Map<number, Partner>();
  let oldest = 0;
  let oldestId = 0;
  for (const [id, c] of commits) {
    if (c.touch.seq >= oldest) [oldest, oldestId] = [c.touch.seq, id];
    // A commit of two files says more about the pair than one of forty.
    const size = c.touch.nfiles > 1 ? 1 / Math.sqrt(c.touch.nfiles - 1) : 0;
    let rec = 0;
    for (const r of c.weights.values()) rec += r;
    for (const p of files.get(id)!) {
      if (leaveOut.has(p)) continue;
      const x = partners.get(p) ?? { pathId: p, score: 0, count: 0, with: new Set<number>() };
      x.score += size * rec;
      x.count++;
      for (const k of c.weights.keys()) x.with.add(k);
      partners.set(p, x);
    }
  }

  const picked = await pick(ctx, scope, [...partners.values()], input.limit, leaveOutNames, input.all);
  const n = commits.size;
  const results = picked.list.map((x) => {
    const touching = store.touchesUpTo(w, x.pathId, oldest);
    return {
      path: x.path!,
      score: round(x.score, 2),
      count: x.count,
      confidence: round(x.count / n, 2),
      jaccard: round(x.count / (n + touching - x.count), 2),
      ...(inputs.length > 1 ? { with: [...x.with].sort((a, b) => a - b).map((k) => inputs[k]!.path) } : {}),
    };
  });
  return {
    repo: ctx.index.repo.root,
    paths,
    rev: scope.commit,
    window: { ...window, from: iso(store.commitTime(oldestId)) },
    commits: n,
    results,
    truncated: picked.truncated,
    ...(await walkStops(ctx, [], toEnd, since ?? undefined)),
  };
}

/**
 * The best `limit` partners that exist at the commit asked about and are not noise (lockfiles,
 * generated, vendored: unless `keepNoise`), by score, then count, then path: only the partners
 * that can reach the list are looked up (existence, name, attributes a batch at a time).
 */
async function pick(ctx: QueryContext, scope: Scope, all: Partner[], limit: number, leaveOut: Set<string>, keepNoise: boolean): Promise<{ list: Partner[]; truncated: boolean }> {
  const store = ctx.index.store;
  const tree = scope.atHead ? undefined : new Set((await treeAt(ctx, scope)).map((e) => e.path));
  const exists = (x: Partner) => {
    if (scope.atHead && !store.tree.hasPathId(x.pathId)) return false;
    x.path ??= store.cochange.pathName(x.pathId);
    return !leaveOut.has(x.path) && (tree === undefined || tree.has(x.path));
  };
  all.sort((x, y) => y.score - x.score || y.count - x.count || x.pathId - y.pathId);
  // Whether each partner may be listed, judged BATCH existing partners at a time (one git check-attr each).
  const ok = new Map<Partner, boolean>();
  let judged = 0;
  const eligible = async (at: number) => {
    while (!ok.has(all[at]!)) {
      const batch: Partner[] = [];
      for (; judged < all.length && batch.length < BATCH; judged++) {
        const x = all[judged]!;
        if (exists(x)) batch.push(x);
        else ok.set(x, false);
      }
      const noise = keepNoise ? new Set<string>() : await noiseAmong(ctx, scope, batch.map((x) => x.path!));
      for (const x of batch) ok.set(x, !noise.has(x.path!));
    }
    return ok.get(all[at]!)!;
  };
  const out: Partner[] = [];
  let more = false;
  for (let i = 0; i < all.length; i++) {
    const x = all[i]!;
    const last = out[limit - 1];
    if (last !== undefined && (x.score !== last.score || x.count !== last.count)) {
      more = more || (await eligible(i));
      if (more) break;
      continue;
    }
    if (await eligible(i)) out.push(x);
  }
  out.sort((x, y) => y.score - x.score || y.count - x.count || (x.path! < y.path! ? -1 : 1));
  return { list: out.slice(0, limit), truncated: more || out.length > limit };
}
