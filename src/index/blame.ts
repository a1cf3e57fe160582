/** Blame on demand, cached by what blame depends on: the path, its content and its history, and the ignore list. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isBackground } from "../git/priority.ts";
import { LoreError, type ErrorCode } from "../errors.ts";
import { git, gitMaybe, gitStream } from "../git/run.ts";
import { IncrementalBlameParser, parseBlamePorcelain, type BlameEntry } from "../git/parse-blame.ts";
import type { BlameCommit, BlameResult } from "../git/records.ts";
import type { CachedBlame } from "../store/blame-store.ts";
import type { IndexContext } from "./context.ts";
import { lineCounts } from "./line-counts.ts";
import { mergeWrittenPaths } from "./merge-written.ts";
import { singleCommitBlame } from "./single-commit-blame.ts";
import { importHead, leftAt, plainImportHead, throughBoundary } from "./blame-below.ts";
import { isShallow } from "../git/repo.ts";

export const IGNORE_REVS_FILE = ".git-blame-ignore-revs";

/** The background pass leaves larger files to be blamed when someone asks: one of them can hold a worker for minutes. */
export const MAX_WARM_BYTES = 2 * 1024 * 1024;

/** The ignore-revs file as read once for one blame: its path for git, its text, and a hash of it for the cache key. */
export interface IgnoreRevs {
  file: string;
  text: string;
  id: string;
}

/** The repository's ignore-revs file; null when absent or not honoured. */
function ignoreRevs(ix: IndexContext, honour: boolean): IgnoreRevs | null {
  if (!honour) return null;
  const file = join(ix.repo.root, IGNORE_REVS_FILE);
  try {
    const bytes = readFileSync(file);
    return { file, text: bytes.toString("utf8"), id: createHash("sha1").update(bytes).digest("hex") };
  } catch {
    return null;
  }
}

export interface BlameTarget {
  path: string;
  /** The commit to blame at. */
  commit: string;
  /** When blaming the indexed head: the path's blob and the last commit that touched it, which make a key that survives new commits. */
  headKey?: { blob: string; lastTouch: string };
  /**
   * The path's blob at the indexed head when there is no headKey (a file only a merge brought,
   * whose history has no commit of its own): stored with the blame so status counts the file blamed.
   */
  headBlob?: string;
  honourIgnoreRevs: boolean;
}

function cacheKey(t: BlameTarget, ignoreId: string): string {
  return t.headKey ? `h\0${t.path}\0${t.headKey.blob}\0${t.headKey.lastTouch}\0${ignoreId}` : `r\0${t.path}\0${t.commit}\0${ignoreId}`;
}

/** Blames being made, by index and key: a second asker waits for the first. Questions and background work apart. */
const inFlight = new Map<string, Promise<CachedBlame>>();

/**
 * Blames git could not make (an object missing from a damaged clone), by index and key: the same
 * content with the same history fails the same way, so it is not asked of git again; a new key
 * (new content, new history) is. Kept in the index too (blame_failures), so a restarted daemon or
 * a new CLI process remembers; this map spares the lookups.
 */
const failed = new Map<string, { path: string; error: LoreError; at: number }>();
/** After this long a failed blame may be asked again (the clone may have been repaired meanwhile). LORE_TEST_FAILED_BLAME_MS: tests. */
const FAILED_MS = process.env.LORE_TEST_FAILED_BLAME_MS !== undefined ? Number(process.env.LORE_TEST_FAILED_BLAME_MS) : 10 * 60_000;

function failureOf(ix: IndexContext, key: string): { path: string; error: LoreError } | undefined {
  const since = Date.now() - FAILED_MS;
  const mine = `${ix.store.path}\0${key}`;
  const f = failed.get(mine);
  if (f && f.at >= since) return f;
  failed.delete(mine);
  const kept = ix.store.blameFailures.find(key, since);
  if (!kept) return undefined;
  const known = { path: kept.path, error: new LoreError(kept.code as ErrorCode, kept.message), at: kept.at };
  failed.set(mine, known);
  return known;
}

function rememberFailure(ix: IndexContext, key: string, path: string, error: LoreError): void {
  const at = Date.now();
  failed.set(`${ix.store.path}\0${key}`, { path, error, at });
  try {
    ix.store.blameFailures.save(key, { path, code: error.code, message: error.message, at });
  } catch {
    // The index is busy or read-only: this process remembers it anyway.
  }
}

/** The failures that belong to the file itself, not to lore or the machine (a full disk, a timeout). */
function isFileFailure(err: unknown): err is LoreError {
  return err instanceof LoreError && (err.code === "GIT_FAILED" || err.code === "BAD_REVISION");
}

/**
 * Told of each group of lines as git attributes it, with the commit's facts, while a file is blamed
 * (not when the blame is cached, found by the single-commit shortcut, or already being made).
 */
export type BlameWatch = (entry: BlameEntry, commit: BlameCommit) => void;

/** The cached blame of a file, blaming it now when it is not cached yet. */
export function blame(ix: IndexContext, t: BlameTarget, watch?: BlameWatch): Promise<CachedBlame> {
  return blameWith(ix, t, ignoreRevs(ix, t.honourIgnoreRevs), watch);
}

/** blame() with the ignore-revs file already read (once for many files). */
function blameWith(ix: IndexContext, t: BlameTarget, ignore: IgnoreRevs | null, watch?: BlameWatch): Promise<CachedBlame> {
  const key = cacheKey(t, ignore?.id ?? "");
  const cached = ix.store.blame.find(key);
  if (cached) return Promise.resolve(cached);
  const failure = failureOf(ix, key);
  if (failure) return Promise.reject(failure.error);
  // A question never waits on the pass's niced git for the same file: it blames at its own priority.
  const flightKey = `${isBackground() ? "b" : "q"}\0${ix.store.path}\0${key}`;
  let p = inFlight.get(flightKey);
  if (!p) {
    p = runBlame(ix, t, key, ignore, watch)
      .catch((err) => {
        if (isFileFailure(err)) rememberFailure(ix, key, t.path, err);
        throw err;
      })
      .finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, p);
  }
  return p;
}

/** Whether the blame of this target is cached already. */
export function isBlamed(ix: IndexContext, t: BlameTarget): boolean {
  const ignore = ignoreRevs(ix, t.honourIgnoreRevs);
  return ix.store.blame.has(cacheKey(t, ignore?.id ?? ""));
}

async function runBlame(ix: IndexContext, t: BlameTarget, key: string, ignore: IgnoreRevs | null, watch?: BlameWatch): Promise<CachedBlame> {
  // The same reading of the ignore file serves the key, the shortcut and git.
  const result = (await singleCommitBlame(ix, t, ignore?.text)) ?? (await gitBlame(ix, t, ignore?.file, watch));
  // Kept as found when the same blame landed meanwhile (the pass and a question, or another process):
  // replacing it would take its rows from under whoever holds it.
  ix.store.transaction(() => {
    if (!ix.store.blame.find(key)) ix.store.blame.save(key, t.path, t.headKey?.blob ?? t.headBlob ?? null, result, Math.floor(Date.now() / 1000));
    ix.store.blameFailures.drop(key);
  });
  return ix.store.blame.find(key)!;
}

async function gitBlame(ix: IndexContext, t: BlameTarget, ignoreFile: string | undefined, watch?: BlameWatch): Promise<BlameResult> {
  // --no-ignore-revs-file drops every blame.ignoreRevsFile of the user's config unread, so only the
  // repository's file counts (--ignore-revs-file "" came after them: one naming a missing file failed).
  const ignores = ["--no-ignore-revs-file", ...(ignoreFile ? ["--ignore-revs-file", ignoreFile] : [])];
  const args = [...ignores, t.commit, "--", t.path];
  const shallow = isShallow(ix.repo);
  // A full clone's blame starts from the imported index's too, where it holds every line git takes back to the import head.
  const below = shallow ? importHead(ix) : ignoreFile ? undefined : await plainImportHead(ix);
  try {
    if (below) {
      const found = await blameBelow(ix, ignores, t, below);
      if (shallow || !leftAt(found, below)) return found;
    }
    const blob = t.headKey?.blob ?? t.headBlob;
    return (blob && (await incrementalBlame(ix, args, blob, watch))) || parseBlamePorcelain(await git(["blame", "--porcelain", ...args], ix.git));
  } catch (err) {
    throw await explained(ix, t, err);
  }
}

/**
 * Blame in a shallow clone with an imported index: git blames the commits since the import head
 * (`^HEAD0`), and the lines older than it take the index's blame at that commit. Where that range
 * leaves lines on another commit git could not look past (a side branch forked below the import
 * head), the plain blame instead, with only the lines on the import head followed into the index.
 */
async function blameBelow(ix: IndexContext, ignores: string[], t: BlameTarget, below: string): Promise<BlameResult> {
  const porcelain = async (revs: string[]) => parseBlamePorcelain(await git(["blame", "--porcelain", ...ignores, ...revs, "--", t.path], ix.git));
  if (t.commit !== below && (await gitMaybe(["merge-base", "--is-ancestor", below, t.commit], ix.git)) !== null) {
    const ranged = await porcelain([t.commit, `^${below}`]);
    const stuck = Object.entries(ranged.commits).some(([sha, c]) => c.boundary && sha !== below);
    if (!stuck) return throughBoundary(ix, ranged, below);
  }
  return throughBoundary(ix, await porcelain([t.commit]), below);
}

/**
 * Blame as git finds it (--incremental: each group of lines as soon as git knows its commit), so a
 * question at its deadline can say how far it got; the line count and git's binary test come from
 * the blob (cached by the background pass). Null, for the porcelain's answer instead, for a binary
 * file or when the groups do not cover the file's lines once each.
 */
async function incrementalBlame(ix: IndexContext, args: string[], blob: string, watch?: BlameWatch): Promise<BlameResult | null> {
  // A blob known to be binary (the pass counts the head's lines first) goes to the porcelain at once.
  if (ix.store.tree.lineCounts([blob]).get(blob) === null) return null;
  const parser = new IncrementalBlameParser();
  const [counts] = await Promise.all([
    lineCounts(ix, [blob]),
    gitStream(["blame", "--incremental", ...args], ix.git, (chunk) => {
      for (const e of parser.push(chunk)) watch?.(e, parser.commit(e.sha)!);
    }),
  ]);
  const lines = counts.get(blob);
  return typeof lines === "number" ? parser.finish(lines, false) : null;
}

/**
 * git blame says "no such path P in REV" when P's content is missing from the object store (a
 * damaged or incomplete clone): the error names the object, so a person knows what to repair.
 */
async function explained(ix: IndexContext, t: BlameTarget, err: unknown): Promise<unknown> {
  if (!isFileFailure(err)) return err;
  const blob =
    t.headKey?.blob ??
    (await gitMaybe(["ls-tree", "-z", "--full-tree", t.commit, "--", t.path], ix.git))
      ?.toString("utf8")
      .match(/^\d+ blob ([0-9a-f]+)\t/)?.[1];
  if (!blob || (await gitMaybe(["cat-file", "-e", blob], ix.git)) !== null) return err;
  return new LoreError("GIT_FAILED", `git cannot blame ${t.path}: its content (object ${blob}) is missing from the repository's object store (a damaged or incomplete clone; git fsck lists what is missing).`);
}

/** "path: why" for each of these targets git could not blame: what an answer built on many blames left out. */
export function leftOut(ix: IndexContext, targets: readonly BlameTarget[]): string[] {
  // One count first: on a sound clone, no lookup per file.
  const prefix = `${ix.store.path}\0`;
  if (failedBlames(ix).count === 0 && ![...failed.keys()].some((k) => k.startsWith(prefix))) return [];
  const honoured = ignoreRevs(ix, true);
  const out: string[] = [];
  for (const t of targets) {
    const f = failureOf(ix, cacheKey(t, (t.honourIgnoreRevs ? honoured : null)?.id ?? ""));
    if (f) out.push(`${f.path}: ${f.error.message}`);
  }
  return out;
}

/** How many files of the index git could not blame lately (for status), and the first of them. */
export function failedBlames(ix: IndexContext): { count: number; first?: string } {
  return ix.store.blameFailures.since(Date.now() - FAILED_MS);
}

/**
 * Blames many files with `workers` git processes at once; calls `onDone` as each finishes. A file
 * git cannot blame is left out of the map (leftOut() says which and why), never the whole answer.
 */
export async function blameMany(ix: IndexContext, targets: BlameTarget[], workers: number, onDone?: (t: BlameTarget, b: CachedBlame) => void): Promise<Map<string, CachedBlame>> {
  const out = new Map<string, CachedBlame>();
  const honoured = ignoreRevs(ix, true);
  const ignoreOf = (t: BlameTarget) => (t.honourIgnoreRevs ? honoured : null);
  // What is cached already, without a turn of the event loop each (owners of a 20,000-file root asks for all).
  const missing: BlameTarget[] = [];
  for (const t of targets) {
    const b = ix.store.blame.find(cacheKey(t, ignoreOf(t)?.id ?? ""));
    if (!b) missing.push(t);
    else {
      out.set(t.path, b);
      onDone?.(t, b);
    }
  }
  // Many files at the head: one walk of the merges first, so the single-commit shortcut can prove its premise.
  const atHead = missing.find((t) => t.headKey);
  if (atHead && missing.length >= 16) await mergeWrittenPaths(ix, atHead.commit, true).catch(() => null);
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const t = missing[next++]!;
      let b: CachedBlame;
      try {
        b = await blameWith(ix, t, ignoreOf(t));
      } catch (err) {
        if (isFileFailure(err)) continue;
        throw err;
      }
      out.set(t.path, b);
      onDone?.(t, b);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, missing.length)) }, worker));
  return out;
}
