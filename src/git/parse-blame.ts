/** Parses `git blame --porcelain` into hunks and the commits they name, once each. */
import type { BlameCommit, BlameHunk, BlameResult } from "./records.ts";
import { BINARY_PROBE_BYTES } from "./binary.ts";
import { unquoteCPath } from "./paths.ts";


interface PendingCommit extends Partial<BlameCommit> {
  filename?: string;
}

/** Parses the whole porcelain output of one blame. */
export function parseBlamePorcelain(out: Uint8Array): BlameResult {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const commits = new Map<string, PendingCommit>();
  const hunks: BlameHunk[] = [];
  let lines = 0;
  let probed = 0;
  let binary = false;
  let pos = 0;
  let sha = "";
  let origLine = 0;
  let finalLine = 0;
  let header = true;

  while (pos < buf.length) {
    let eol = buf.indexOf(0x0a, pos);
    if (eol < 0) eol = buf.length;
    if (buf[pos] === 0x09) {
      // The line's content: count it and apply git's binary test to the first 8,000 bytes.
      if (probed < BINARY_PROBE_BYTES && !binary) {
        const end = Math.min(eol + 1, pos + 1 + (BINARY_PROBE_BYTES - probed));
        if (buf.subarray(pos + 1, end).includes(0)) binary = true;
        probed += end - pos - 1;
      }
      const c = commits.get(sha)!;
      addLine(hunks, sha, c.filename ?? "", origLine, finalLine);
      lines++;
      header = true;
    } else if (header) {
      const parts = buf.toString("latin1", pos, eol).split(" ");
      sha = parts[0]!;
      origLine = Number(parts[1]);
      finalLine = Number(parts[2]);
      if (!commits.has(sha)) commits.set(sha, {});
      header = false;
    } else readHeader(buf, pos, eol, commits.get(sha)!);
    pos = eol + 1;
  }

  const out2: Record<string, BlameCommit> = {};
  for (const [k, c] of commits) out2[k] = facts(c);
  hunks.sort((a, b) => a.start - b.start);
  return { hunks, commits: out2, lines, binary };
}

/** One header line of a group (porcelain and incremental alike) into its commit's facts; returns the key. */
function readHeader(buf: Buffer, pos: number, eol: number, c: PendingCommit): string {
  const sp = buf.indexOf(0x20, pos);
  const keyEnd = sp < 0 || sp > eol ? eol : sp;
  const key = buf.toString("latin1", pos, keyEnd);
  const value = () => buf.toString("utf8", keyEnd + 1, eol);
  switch (key) {
    case "author": c.author = value(); break;
    case "author-mail": c.email = value().replace(/^<|>$/g, ""); break;
    case "author-time": c.time = Number(value()); break;
    case "summary": c.subject = value(); break;
    case "boundary": c.boundary = true; break;
    case "filename": c.filename = unquoteCPath(buf.subarray(keyEnd + 1, eol)); break;
  }
  return key;
}

/** A commit's facts as the answers keep them. */
function facts(c: PendingCommit): BlameCommit {
  return { author: c.author ?? "", email: c.email ?? "", time: c.time ?? 0, subject: c.subject ?? "", ...(c.boundary ? { boundary: true } : {}) };
}

/** Extends the hunk the line continues (same commit, same file, both line numbers +1) or opens one. */
function addLine(hunks: BlameHunk[], sha: string, origPath: string, origLine: number, finalLine: number): void {
  const last = hunks[hunks.length - 1];
  if (last && last.sha === sha && last.origPath === origPath && last.end + 1 === finalLine && last.origStart + (finalLine - last.start) === origLine) {
    last.end = finalLine;
    return;
  }
  hunks.push({ start: finalLine, end: finalLine, sha, origPath, origStart: origLine });
}

/** One group of lines `git blame --incremental` attributes: final lines start..start+count-1, from origStart on in origPath. */
export interface BlameEntry {
  sha: string;
  origStart: number;
  start: number;
  count: number;
  origPath: string;
}

/**
 * Parses `git blame --incremental` as it arrives: git prints each group of lines as soon as it
 * knows their commit (in no line order), a commit's facts the first time it names it, and every
 * group ends with its filename. The result is the same as parseBlamePorcelain's, but for the
 * binary test and the line count, which need the content (the caller has them).
 */
export class IncrementalBlameParser {
  private readonly commits = new Map<string, PendingCommit>();
  private readonly entries: BlameEntry[] = [];
  private rest: Buffer = Buffer.alloc(0);
  private entry: Omit<BlameEntry, "origPath"> | undefined;

  /** Takes a chunk of output; returns the groups it completed. */
  push(chunk: Uint8Array): BlameEntry[] {
    const buf = this.rest.length ? Buffer.concat([this.rest, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const done: BlameEntry[] = [];
    let pos = 0;
    for (let eol = buf.indexOf(0x0a, pos); eol >= 0; pos = eol + 1, eol = buf.indexOf(0x0a, pos)) {
      const e = this.line(buf, pos, eol);
      if (e) done.push(e);
    }
    this.rest = Buffer.from(buf.subarray(pos));
    return done;
  }

  /** A commit's facts as git gave them (once it has named the commit). */
  commit(sha: string): BlameCommit | undefined {
    const c = this.commits.get(sha);
    return c && facts(c);
  }

  private line(buf: Buffer, pos: number, eol: number): BlameEntry | undefined {
    if (!this.entry) {
      const parts = buf.toString("latin1", pos, eol).split(" ");
      const sha = parts[0]!;
      this.entry = { sha, origStart: Number(parts[1]), start: Number(parts[2]), count: Number(parts[3]) };
      if (!this.commits.has(sha)) this.commits.set(sha, {});
      return undefined;
    }
    const c = this.commits.get(this.entry.sha)!;
    // Every group ends with its filename: the file its lines came from.
    if (readHeader(buf, pos, eol, c) !== "filename") return undefined;
    const e = { ...this.entry, origPath: c.filename! };
    this.entry = undefined;
    this.entries.push(e);
    return e;
  }

  /** The whole blame, its groups in line order joined as the porcelain parser joins lines; null when the groups do not cover lines 1..lines once each. */
  finish(lines: number, binary: boolean): BlameResult | null {
    if (this.rest.length || this.entry) return null;
    const sorted = [...this.entries].sort((a, b) => a.start - b.start);
    const hunks: BlameHunk[] = [];
    let next = 1;
    for (const e of sorted) {
      if (e.start !== next || e.count < 1) return null;
      for (let i = 0; i < e.count; i++) addLine(hunks, e.sha, e.origPath, e.origStart + i, e.start + i);
      next = e.start + e.count;
    }
    if (next !== lines + 1) return null;
    const commits: Record<string, BlameCommit> = {};
    for (const sha of this.commits.keys()) commits[sha] = this.commit(sha)!;
    return { hunks, commits, lines, binary };
  }
}
