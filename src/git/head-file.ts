/** Reads the commit HEAD points at from the git dir's files, without starting git: the daemon's per-question freshness check. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Repo } from "./repo.ts";

/** A commit id as git prints it in full (SHA-1 or SHA-256). */
export const FULL_SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Refs each worktree keeps for itself; every other ref lives in the common dir. */
const PER_WORKTREE = /^(?:HEAD|refs\/(?:bisect|worktree|rewritten)\/.*|[A-Z_]+)$/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

const packedCache = new Map<string, { stamp: string; refs: Map<string, string> }>();

/** A ref from packed-refs, parsed again only when the file changes. */
function packedRef(commonDir: string, ref: string): string | undefined {
  const path = join(commonDir, "packed-refs");
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return undefined;
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  let cached = packedCache.get(path);
  if (!cached || cached.stamp !== stamp) {
    const refs = new Map<string, string>();
    for (const line of (read(path) ?? "").split("\n")) {
      const sp = line.indexOf(" ");
      if (sp > 0 && !line.startsWith("#") && !line.startsWith("^")) refs.set(line.slice(sp + 1), line.slice(0, sp));
    }
    cached = { stamp, refs };
    packedCache.set(path, cached);
  }
  return cached.refs.get(ref);
}

/**
 * HEAD's commit; null when HEAD names a branch with no commits yet; undefined when the
 * files cannot tell (a reftable repository, an odd ref) and git must be asked.
 */
export function readHeadCommit(repo: Repo): string | null | undefined {
  if (existsSync(join(repo.commonDir, "reftable"))) return undefined;
  let ref = "HEAD";
  for (let depth = 0; depth < 5; depth++) {
    const text = read(join(PER_WORKTREE.test(ref) ? repo.gitDir : repo.commonDir, ref))?.trim();
    if (text === undefined) {
      if (ref === "HEAD") return undefined;
      const packed = packedRef(repo.commonDir, ref);
      return packed === undefined ? null : FULL_SHA.test(packed) ? packed : undefined;
    }
    if (FULL_SHA.test(text)) return text;
    if (!text.startsWith("ref: ")) return undefined;
    ref = text.slice(5).trim();
  }
  return undefined;
}

/** The branch HEAD names ("main"), null when HEAD is detached, undefined when the files cannot tell. */
export function readHeadBranch(repo: Repo): string | null | undefined {
  if (existsSync(join(repo.commonDir, "reftable"))) return undefined;
  const text = read(join(repo.gitDir, "HEAD"))?.trim();
  if (text === undefined) return undefined;
  if (FULL_SHA.test(text)) return null;
  return text.startsWith("ref: refs/heads/") ? text.slice("ref: refs/heads/".length) : undefined;
}
