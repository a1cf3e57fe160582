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
    } else {
      const sp = buf.indexOf(0x20, pos);
      const keyEnd = sp < 0 || sp > eol ? eol : sp;
      const key = buf.toString("latin1", pos, keyEnd);
      const c = commits.get(sha)!;
      const value = () => buf.toString("utf8", keyEnd + 1, eol);
      switch (key) {
        case "author": c.author = value(); break;
        case "author-mail": c.email = value().replace(/^<|>$/g, ""); break;
        case "author-time": c.time = Number(value()); break;
        case "summary": c.subject = value(); break;
        case "boundary": c.boundary = true; break;
        case "filename": c.filename = unquoteCPath(buf.subarray(keyEnd + 1, eol)); break;
      }
    }
    pos = eol + 1;
  }

  const out2: Record<string, BlameCommit> = {};
  for (const [k, c] of commits) {
    out2[k] = { author: c.author ?? "", email: c.email ?? "", time: c.time ?? 0, subject: c.subject ?? "" };
    if (c.boundary) out2[k]!.boundary = true;
  }
  hunks.sort((a, b) => a.start - b.start);
  return { hunks, commits: out2, lines, binary };
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
