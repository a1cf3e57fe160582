/**
 * The file on disk as `git blame -- PATH` sees it: its lines, which are not committed, and where each
 * committed one sits in HEAD's version (through git's own diff), remembered per file stamp so a clean
 * file costs no git process and a dirty one one diff.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { LoreError } from "../../errors.ts";
import type { TreeEntry } from "../../git/records.ts";
import { eolStamp } from "../../git/eol-stamp.ts";
import { git, gitMaybe } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import { lsTree } from "../../index/tree.ts";
import type { QueryContext } from "../context.ts";
import { workTreeRoot } from "./common.ts";
import { DIFF_FLAGS, diffBlobs, diffWith, parsePatch, runsOf, type Hunk } from "./disk-diff.ts";
import { withMerges } from "./disk-merge.ts";
import { blobId, changing, countLines, isLinkMode, quickStamp, READ_TRIES, readDisk, stampOf } from "./disk-read.ts";

/** A run of on-disk lines: committed ones carry the HEAD line of their first (`head`), uncommitted ones null. */
export interface DiskRun {
  start: number;
  end: number;
  head: number | null;
  /** Lines a merge in progress brought: their line is in merges[from]'s version, not HEAD's. */
  from?: number;
}

/** The file on disk when it differs from HEAD's. */
export interface DiskFile {
  /** The path in HEAD whose lines the committed ones are (the path itself, or a staged rename's source); null when none is. */
  headPath: string | null;
  /** Its entry at HEAD (null with headPath). */
  headEntry: TreeEntry | null;
  lines: number;
  /** Every on-disk line in exactly one run, in order. */
  runs: DiskRun[];
  /** During a merge (MERGE_HEAD): the other parents git blame gives lines to, with the file's entry there. */
  merges?: { commit: string; entry: TreeEntry }[];
}

/** What a file stamp was found to be: clean (undefined) or its on-disk view, for the HEAD blob it was compared with. */
interface Remembered {
  stamp: string;
  against: string;
  view: DiskFile | undefined;
  /** For a file with CR in it: the stamps of the config and attribute files that say how git converts its line ends. */
  eol?: string;
}

const MAX_REMEMBERED = 512;
const remembered = new Map<string, Remembered>();

function remember(key: string, r: Remembered): void {
  remembered.delete(key);
  remembered.set(key, r);
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

/** HEAD's entry for a path (undefined when HEAD has none). */
async function headEntry(ctx: QueryContext, scope: Scope, path: string): Promise<TreeEntry | undefined> {
  return scope.atHead ? ctx.index.store.tree.entry(path) : (await lsTree(ctx.index, scope.commit, [path])).find((e) => e.path === path);
}

/**
 * The file on disk when it differs from HEAD's (scope is HEAD's); undefined when it is clean or not on
 * disk (the question is then answered at HEAD, as git blame does for a file deleted on disk).
 */
export async function diskFile(ctx: QueryContext, scope: Scope, path: string): Promise<DiskFile | undefined> {
  if (path === "") return undefined;
  const full = join(workTreeRoot(ctx), path);
  const entry = await headEntry(ctx, scope, path);
  if (entry && entry.type !== "blob") return undefined;
  const key = `${workTreeRoot(ctx)}\0${path}`;
  // Not in HEAD: what it is depends on the staging area too (a staged rename), so its stamp is part of the key.
  // A merge starting or ending (MERGE_HEAD) gives lines to other commits.
  const merging = quickStamp(join(ctx.index.repo.gitDir, "MERGE_HEAD")) ?? "";
  const against = (entry ? `${scope.commit}:${entry.blob}` : `${scope.commit}:${indexStamp(ctx)}`) + merging;
  const known = remembered.get(key);
  // The same stamp as last time (inode, size, mtime, ctime, mode): the same answer, without reading the file.
  if (known && known.against === against && known.stamp === quickStamp(full) && (known.eol === undefined || known.eol === eolStampOf(ctx, path))) return known.view;
  // git reads the file again for its diff: an editor saving in between would give lines of another version, so the stamp must hold throughout.
  for (let attempt = 0; attempt < READ_TRIES; attempt++) {
    const disk = readDisk(full, path);
    if (!disk) return undefined;
    // git's test for a binary file (a NUL in its first 8,000 bytes), for one HEAD has not blamed.
    if (!entry && disk.content.subarray(0, 8000).includes(0)) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines.`);
    const eol = disk.content.includes(13) ? eolStampOf(ctx, path) : undefined;
    let view: DiskFile | undefined;
    let failed: unknown;
    try {
      // A symlink on one side and a file on the other, same bytes or not: git blame sees a type change, no line from HEAD.
      const retyped = entry !== undefined && isLinkMode(entry.mode) !== disk.link;
      const mine = retyped ? uncommitted(disk.content) : entry ? await againstHead(ctx, scope, path, entry, disk.content) : await notInHead(ctx, scope, path, disk.content);
      view = mine && (await withMerges(ctx, path, disk.content, disk.link, mine));
    } catch (err) {
      failed = err;
    }
    // Changed meanwhile (a git that read it as it was replaced fails: "short read while indexing"): read it again.
    if (quickStamp(full) !== disk.stamp) continue;
    if (failed !== undefined) throw failed;
    remember(key, { stamp: disk.stamp, against, view, ...(eol !== undefined ? { eol } : {}) });
    return view;
  }
  throw changing(path);
}

function eolStampOf(ctx: QueryContext, path: string): string {
  return eolStamp(ctx.index.repo.commonDir, workTreeRoot(ctx), path);
}

function indexStamp(ctx: QueryContext): string {
  const st = statSync(join(ctx.index.repo.gitDir, "index"), { throwIfNoEntry: false });
  return st ? stampOf(st) : "none";
}

async function againstHead(ctx: QueryContext, scope: Scope, path: string, entry: TreeEntry, content: Buffer): Promise<DiskFile | undefined> {
  // The same bytes as HEAD's blob: clean, no git needed. Not for a file with CR in it: git's eol
  // conversion (core.autocrlf, .gitattributes text/eol) may read it as other bytes than it has, so git says.
  const sha256 = entry.blob.length === 64;
  const raw = blobId(content, sha256);
  if (!content.includes(13) && raw === entry.blob) return undefined;
  // The blob git makes of the file, where lore knows it (bytes git reads as they are).
  let diskBlob: string | undefined = content.includes(13) ? undefined : raw;
  if (content.includes(13)) {
    // The blob git blame makes of the file (hash-object without -w writes nothing): git diff would trust
    // the staging area's stat of the file instead, which says nothing of an eol setting changed since.
    let asGit = (await git(["hash-object", `--path=${path}`, "--stdin"], { ...ctx.index.git, input: content })).toString("latin1").trim();
    if (asGit !== raw && (await keepsCrlf(ctx, path))) asGit = raw;
    if (asGit === entry.blob) return undefined;
    if (asGit === raw) diskBlob = raw;
    const lf = Buffer.from(content.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
    if (asGit !== raw && asGit === blobId(lf, sha256)) {
      const hunks = await diffBlobs(ctx, entry.blob, lf);
      return hunks.length ? withRuns(path, entry, lf, hunks) : undefined;
    }
  }
  // git's own diff of HEAD's blob and the file as git reads it (its eol conversion applied; filters,
  // which are programs and may write into .git, off).
  const hunks = await diffWith(ctx, scope.commit, path, entry, content, diskBlob);
  // The same content once converted (CRLF), or a mode change alone.
  if (hunks.length === 0) return undefined;
  return withRuns(path, entry, content, hunks);
}

/**
 * git's safer autocrlf: an automatic conversion (core.autocrlf, text=auto) leaves a file's CRLF alone
 * when the staging area's version has CRLF. hash-object reads no staging area, so it converts; git blame
 * and git diff do not, and neither does lore. An explicit text or eol attribute converts all the same.
 */
async function keepsCrlf(ctx: QueryContext, path: string): Promise<boolean> {
  const attrs = (await git(["check-attr", "-z", "text", "eol", "--", path], ctx.index.git)).toString("utf8").split("\0");
  // Triples of path, attribute, value.
  const value = (name: string) => {
    for (let i = 1; i + 1 < attrs.length; i += 3) if (attrs[i] === name) return attrs[i + 1];
    return undefined;
  };
  const text = value("text");
  if (text !== "auto" && (text !== "unspecified" || value("eol") !== "unspecified")) return false;
  const staged = await gitMaybe(["cat-file", "blob", `:${path}`], ctx.index.git);
  // git's test: CRLF in it and not binary (a NUL in its first 8,000 bytes).
  return staged !== null && staged.includes("\r\n") && !staged.subarray(0, 8000).includes(0);
}

/** Every line not committed: none comes from HEAD. */
function uncommitted(content: Buffer): DiskFile {
  const lines = countLines(content);
  return { headPath: null, headEntry: null, lines, runs: lines ? [{ start: 1, end: lines, head: null }] : [] };
}

/** A file HEAD does not have: a staged rename keeps its source's lines, as git blame finds it (renames among HEAD and the staged files). */
async function notInHead(ctx: QueryContext, scope: Scope, path: string, content: Buffer): Promise<DiskFile> {
  const all = uncommitted(content);
  const staged = await git(["ls-files", "-z", "--cached", "--", path], ctx.index.git);
  if (staged.length === 0) return all;
  const status = (await git([...DIFF_FLAGS.slice(0, 3), "--name-status", "-z", "-M", "--no-color", scope.commit], ctx.index.git)).toString("utf8").split("\0");
  let source: string | undefined;
  for (let i = 0; i < status.length; ) {
    const s = status[i]!;
    if (/^[RC]\d*$/.test(s)) {
      if (status[i + 2] === path) source = status[i + 1];
      i += 3;
    } else i += 2;
    if (source !== undefined) break;
  }
  if (source === undefined) return all;
  const entry = await headEntry(ctx, scope, source);
  if (!entry || entry.type !== "blob") return all;
  const out = await git([...DIFF_FLAGS, "-M", scope.commit, "--", source, path], ctx.index.git);
  return withRuns(source, entry, content, parsePatch(out).hunks);
}

function withRuns(headPath: string, entry: TreeEntry, content: Buffer, hunks: Hunk[]): DiskFile {
  const lines = countLines(content);
  return { headPath, headEntry: entry, lines, runs: runsOf(lines, hunks) };
}

/** The runs cut to disk lines a..b. */
export function runsIn(view: DiskFile, a: number, b: number): DiskRun[] {
  const out: DiskRun[] = [];
  for (const r of view.runs) {
    if (r.end < a || r.start > b) continue;
    const start = Math.max(r.start, a);
    const end = Math.min(r.end, b);
    out.push({ start, end, head: r.head === null ? null : r.head + (start - r.start), ...(r.from !== undefined ? { from: r.from } : {}) });
  }
  return out;
}
