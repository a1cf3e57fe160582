/** git's own diff of a committed version of a file and the file on disk, as -U0 hunks, and the on-disk runs they make. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoreError } from "../../errors.ts";
import type { TreeEntry } from "../../git/records.ts";
import { git, gitCapped } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { DiskRun } from "./disk-file.ts";

/**
 * The hunks git blame's own diff makes: 0 lines of context, myers (git 2.39's blame reads no
 * diff.algorithm, so a user's histogram must not reach git diff either), the indent heuristic as
 * diff.indentHeuristic says for both; -U0 hunks are xdiff's change records as blame gets them.
 * diff.autoRefreshIndex=false: git diff would otherwise rewrite .git/index (DESIGN: facts found).
 */
export const DIFF_FLAGS = ["-c", "diff.autoRefreshIndex=false", "diff", "-U0", "--text", "--no-color", "--no-ext-diff", "--no-textconv", "--diff-algorithm=myers", "--src-prefix=a/", "--dst-prefix=b/"];

/**
 * The -U0 hunks from `path` at `commit` (entry) to the file on disk. `diskBlob`, the blob git makes of
 * the file, when known: a diff that is not of it took the staging area's version for the file's
 * (assume-unchanged, skip-worktree), where git blame reads the file.
 */
export async function diffWith(ctx: QueryContext, commit: string, path: string, entry: TreeEntry, content: Buffer, diskBlob?: string): Promise<Hunk[]> {
  const patch = parsePatch(await git([...DIFF_FLAGS, "--full-index", "--no-renames", commit, "--", path], ctx.index.git));
  const notTheFile = diskBlob !== undefined && diskBlob !== entry.blob && patch.newBlob !== diskBlob;
  // Not in the staging area: git diff calls it deleted though it is on disk, as git blame does not.
  return patch.deleted || notTheFile ? diffBlobs(ctx, entry.blob, content) : patch.hunks;
}

/** The diff of a HEAD blob and content lore read, through two files in the OS's temporary folder (never the repository). */
export async function diffBlobs(ctx: QueryContext, blob: string, content: Buffer): Promise<Hunk[]> {
  const dir = mkdtempSync(join(tmpdir(), "lore-disk-"));
  try {
    writeFileSync(join(dir, "head"), await git(["cat-file", "blob", blob], ctx.index.git));
    writeFileSync(join(dir, "disk"), content);
    // --no-index exits 1 when the files differ: any status with a patch is the answer.
    const r = await gitCapped([...DIFF_FLAGS, "--no-index", "--", join(dir, "head"), join(dir, "disk")], { ...ctx.index.git, cwd: dir }, 1 << 30, 1 << 16);
    if (r.code > 1) throw new LoreError("GIT_FAILED", `git diff failed: ${r.stderr.toString("utf8").trim()}`);
    return parsePatch(r.stdout).hunks;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A -U0 hunk: HEAD's lines oldStart.. (oldCount of them) became the disk's newStart.. (newCount). */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** The hunks of a -U0 patch of one file, whether git calls the file deleted, and the new side's blob (--full-index; none without a change). */
export function parsePatch(out: Buffer): { hunks: Hunk[]; deleted: boolean; newBlob?: string } {
  const text = out.toString("latin1");
  const hunks: Hunk[] = [];
  for (const m of text.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    hunks.push({ oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newStart: Number(m[3]), newCount: m[4] === undefined ? 1 : Number(m[4]) });
  }
  const index = /^index [0-9a-f]+\.\.([0-9a-f]+)/m.exec(text);
  return { hunks, deleted: /^deleted file mode /m.test(text), ...(index ? { newBlob: index[1] } : {}) };
}

/** The on-disk runs a patch makes: lines outside its + sides are HEAD's, shifted by what came before. */
export function runsOf(lines: number, hunks: Hunk[]): DiskRun[] {
  const runs: DiskRun[] = [];
  let disk = 1;
  let shift = 0; // head line = disk line - shift
  const committed = (to: number) => {
    if (to >= disk) runs.push({ start: disk, end: to, head: disk - shift });
  };
  for (const h of hunks) {
    // A hunk adding nothing names the line after which it deleted (newStart is the last line before it).
    const firstNew = h.newCount === 0 ? h.newStart + 1 : h.newStart;
    committed(firstNew - 1);
    if (h.newCount > 0) runs.push({ start: firstNew, end: firstNew + h.newCount - 1, head: null });
    disk = firstNew + h.newCount;
    shift += h.newCount - h.oldCount;
  }
  committed(lines);
  return runs;
}

