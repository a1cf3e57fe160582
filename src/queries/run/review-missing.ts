/** What a change may have missed: the evidence of the index as of the old side (each changed file's newest commits, the repository's newest, the files there), ranked by missing-rank.ts. */
import type { ChangedFile } from "../../git/parse-diff-hunks.ts";
import { gitCapped, gitMaybe } from "../../git/run.ts";
import { lsTree } from "../../index/tree.ts";
import type { QueryContext } from "../context.ts";
import { PER_FILE } from "../cochange.ts";
import { HistoryNotYet } from "./common.ts";
import { MISSING_PARAMS, rankMissing, type Evidence, type PastCommit } from "./missing-rank.ts";
import { parseGrep, remainsOf, searchedLines } from "./missing-remains.ts";
import { confidenceOf, whyOf } from "./missing-why.ts";
import { noiseAmong } from "./noise-files.ts";
import { oldName } from "./review-rewrites.ts";

export interface Missing {
  path: string;
  confidence: number;
  with: string[];
  /** How many changed files it goes with, when more than `with` names. */
  withTotal?: number;
  why: string;
}

/** Changed files `with` names at most: a sweeping change would repeat most of its list in every row. */
const MAX_WITH = 10;
/** Changed files asked about at most: each costs a read of its window, and a 5,000-file change says little more than its first hundred. */
const MAX_INPUTS = 100;
/** Words of the change's patches kept at most. */
const MAX_WORDS = 5000;
/** The repository's newest commits read for what most changes bring. */
const RECENT = 100;
const MAX_FILES = 50;
/** Candidates judged for noise per row shown: more lockfiles and generated files than this among the best are not met. */
const NOISE_MARGIN = 20;
/** How long the search for the change's removed lines may take: past it, the answer goes without them. */
const GREP_MS = 2000;
/** The search's output read at most: a line in thousands of files is boilerplate, and the search then says nothing. */
const MAX_GREP_BYTES = 1 << 20;

/** The last search for removed lines: the same lines at the same commit (or the work tree at the same HEAD, whose files outside the change are HEAD's) have the same files. */
let grepMemo: { key: string; found: Promise<Map<string, Set<string>>> } | undefined;

/** The files at a commit (never change for a sha): the last one asked, so names and places are indexed once. */
let treeMemo: { commit: string; files: Set<string> } | undefined;

/**
 * `oldSide` is the commit the candidates must exist at (HEAD, or the merge base; undefined: the
 * indexed head). Inputs are the changed files that existed there, by their old names; `with` names them by their new ones.
 * `keepNoise`: lockfiles, generated and vendored files may be named too (--all).
 */
export async function missingOf(ctx: QueryContext, oldSide: string | undefined, files: ChangedFile[], limit: number, keepNoise = false): Promise<Missing[]> {
  const { history, cochange } = ctx.index.store;
  const change = new Set<string>();
  for (const f of files) change.add(f.path).add(oldName(f));
  const newName = new Map<string, string>();
  const ids: number[] = [];
  const added: string[] = [];
  for (const f of files) {
    const pid = f.status === "A" || f.status === "C" ? undefined : history.pathId(oldName(f));
    if (pid === undefined) {
      if (added.length < MAX_INPUTS) added.push(f.path);
    } else if (ids.length < MAX_INPUTS) {
      newName.set(oldName(f), f.path);
      ids.push(pid);
    }
  }
  if (ids.length + added.length === 0) return [];
  const words = new Set<string>();
  for (const f of files) for (const w of f.words ?? []) if (words.size < MAX_WORDS) words.add(w);
  const imports = new Map<string, string[]>();
  for (const f of files) if (f.imports?.length && imports.size < MAX_INPUTS) imports.set(f.path, f.imports);
  const removedBy = new Map<string, string[]>();
  for (const f of files) if (f.removed?.length && removedBy.size < MAX_INPUTS) removedBy.set(f.path, f.removed);
  // Started before the index is read, so git searches meanwhile. Against the indexed head git reads
  // the work tree (outside the change HEAD's files, but for edits a --staged or narrowed review leaves
  // out: what the files hold now), without inflating the whole tree.
  const scope = await ctx.index.scope(oldSide);
  const lines = searchedLines(removedBy);
  const key = `${ctx.index.repo.root}\0${oldSide === undefined ? "work tree at " : ""}${scope.commit}\0${lines.join("\0")}`;
  if (grepMemo?.key !== key) grepMemo = { key, found: stillThere(ctx, oldSide === undefined ? undefined : scope.commit, lines) };
  const grep = grepMemo.found;
  const w = { scope: scope.table, limit: PER_FILE, since: null, maxFiles: MAX_FILES };
  const windows = ids.map((pid) => cochange.touches(w, pid));
  if (scope.prefix !== undefined && windows.some((t) => t.length < PER_FILE)) throw new HistoryNotYet();
  const recent = cochange.newest(scope.table, RECENT, MAX_FILES);

  const seqs = new Map<number, number>();
  for (const t of [...recent, ...windows.flat()]) seqs.set(t.commitId, t.seq);
  const byId = cochange.filesOf([...seqs.keys()]);
  const names = cochange.pathNames(new Set([...byId.values()].flat()));
  const newest = recent[0]?.seq ?? 0;
  const commits = new Map<number, PastCommit>();
  for (const [id, seq] of seqs) commits.set(id, { files: byId.get(id)!.map((p) => names.get(p)!), age: seq - newest });

  if (treeMemo?.commit !== scope.commit) {
    const entries = scope.atHead ? ctx.index.store.tree.entries() : await lsTree(ctx.index, scope.commit);
    treeMemo = { commit: scope.commit, files: new Set(entries.filter((e) => e.type === "blob").map((e) => e.path)) };
  }
  const found = await grep;
  const e: Evidence = {
    inputs: [...newName.keys()],
    touches: windows.map((t) => t.map((x) => x.commitId)),
    commits,
    tree: treeMemo.files,
    change,
    added,
    recent: recent.map((t) => t.commitId),
    words,
    imports,
    remains: remainsOf(removedBy, found, change, treeMemo.files),
  };
  const now = (old: string) => newName.get(old) ?? old;
  // A row nothing but a name, an import or a word put there (confidence 0) is a guess: not shown, so the next one backed is.
  const backed = rankMissing(e, MISSING_PARAMS, Infinity)
    .map((r) => ({ ...r, confidence: confidenceOf(r, e) }))
    .filter((r) => r.confidence > 0)
    .slice(0, limit * NOISE_MARGIN);
  // Lockfiles, generated and vendored files are left out as hotspots and cochange leave them out.
  const noise = keepNoise ? new Set<string>() : await noiseAmong(ctx, scope, backed.map((r) => r.path));
  return backed.filter((r) => !noise.has(r.path)).slice(0, limit).map((r) => {
    const named = [...r.with.map((k) => e.inputs[k]!), r.name?.of, r.analogy?.of].filter((f) => f !== undefined).map(now);
    // An importer and a line's remover are new names already (read from the change as it is now).
    const withNames = [...new Set([...named, r.importedBy, r.remain?.from].filter((f) => f !== undefined))];
    return {
      path: r.path,
      confidence: r.confidence,
      with: withNames.slice(0, MAX_WITH),
      ...(withNames.length > MAX_WITH ? { withTotal: withNames.length } : {}),
      why: whyOf(r, e, now),
    };
  });
}

/** The files at `commit` (undefined: the work tree's tracked files) that have each line (git grep, binary files skipped); nothing when git cannot say in time. */
async function stillThere(ctx: QueryContext, commit: string | undefined, lines: string[]): Promise<Map<string, Set<string>>> {
  if (lines.length === 0) return new Map();
  const opts = { ...ctx.index.git, timeoutMs: GREP_MS };
  const common = ["grep", "-o", "-z", "-I", "--full-name", "--no-line-number", "--no-column"];
  const at = [...(commit ? [commit] : []), "--"];
  // One Perl pattern of the lines as literals (the longest first wins where two match) reads each file once; -F with one -e a line reads it once a line.
  const perl = lines.map((l) => `\\Q${l.replaceAll("\\E", "\\E\\\\E\\Q")}\\E`).join("|");
  const r = await gitCapped([...common, "-P", "-e", perl, ...at], opts, MAX_GREP_BYTES, 4096).catch(() => undefined);
  // Exit 1: no file has any. A git built without Perl patterns exits 128: ask again, a fixed string each.
  if (r && r.code <= 1) return r.code === 0 && !r.cut ? parseGrep(r.stdout.toString("utf8"), commit ?? "") : new Map();
  const out = await gitMaybe([...common, "-F", ...lines.flatMap((l) => ["-e", l]), ...at], opts).catch(() => null);
  return out ? parseGrep(out.toString("utf8"), commit ?? "") : new Map();
}
