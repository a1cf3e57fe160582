/** The one error type: a stable code and a sentence a person can act on. */
import { loreHome } from "./home.ts";

export type ErrorCode =
  | "USAGE"
  | "UNKNOWN_QUESTION"
  | "BAD_ARGUMENT"
  | "BAD_RANGE"
  | "BAD_REVISION"
  | "NOT_A_REPO"
  | "NO_COMMITS"
  | "PATH_NOT_FOUND"
  | "PATH_OUTSIDE_REPO"
  | "NOT_A_FILE"
  | "BINARY_FILE"
  | "GIT_FAILED"
  | "GIT_MISSING"
  | "GIT_TOO_OLD"
  | "GIT_TIMEOUT"
  | "GIT_STOPPED"
  | "INDEX_BUSY"
  | "INDEX_CORRUPT"
  | "INDEX_WRITE_FAILED"
  | "DAEMON_UNAVAILABLE"
  | "REPO_NOT_ALLOWED"
  | "NOT_ALLOWED"
  | "BAD_CONTINUE"
  // lore serve: a question about a work tree, which a server's own clones are not.
  | "NEEDS_WORK_TREE"
  // lore index build|export|import (docs/cloud.md, "The index file").
  | "INDEX_INCOMPLETE"
  | "BAD_INDEX_FILE"
  | "INDEX_TOO_NEW"
  | "INDEX_FOREIGN"
  | "INDEX_MISMATCH"
  | "INDEX_DOWNLOAD_FAILED"
  | "INTERNAL";

/** Codes that mean "the call's words are off": exit status 2 on the CLI. */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set(["USAGE", "UNKNOWN_QUESTION", "BAD_ARGUMENT", "BAD_RANGE", "BAD_CONTINUE"]);

export class LoreError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "LoreError";
  }
}

export function isUsageError(code: string): boolean {
  return USAGE_CODES.has(code as ErrorCode);
}

/** Any thrown value as a LoreError; unknown failures become INTERNAL without leaking a stack. */
export function toLoreError(err: unknown): LoreError {
  if (err instanceof LoreError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // SQLite's words for a full disk and a damaged file, wherever they surface.
  if (/database or disk is full|SQLITE_FULL|no space left/i.test(message))
    return new LoreError("INDEX_WRITE_FAILED", "lore could not write its index: the disk is full. Free some space (or point LORE_HOME at a disk with room) and ask again; the index was left as it was.", { cause: err });
  if (/database disk image is malformed|SQLITE_CORRUPT|file is not a database/i.test(message))
    return new LoreError("INDEX_CORRUPT", "lore's index file is damaged; ask again and lore rebuilds it.", { cause: err });
  const home = homeProblem(err);
  if (home) return new LoreError("INDEX_WRITE_FAILED", `lore cannot write in its folder ${loreHome()}: ${home}. Set LORE_HOME to a folder you can write.`, { cause: err });
  return new LoreError("INTERNAL", `lore failed unexpectedly: ${message}`, { cause: err });
}

/** What stops lore making or writing its own folder (a file where a folder should be, no permission), in words; undefined for anything else. */
function homeProblem(err: unknown): string | undefined {
  const { code, path } = (err ?? {}) as { code?: unknown; path?: unknown };
  const home = loreHome();
  if (typeof path !== "string" || (path !== home && !path.startsWith(home.endsWith("/") ? home : `${home}/`))) return undefined;
  const why: Record<string, string> = { ENOTDIR: "a file stands where a folder should be", EEXIST: "a file stands where a folder should be", EACCES: "permission denied", EPERM: "permission denied", EROFS: "the disk is read-only" };
  return typeof code === "string" && why[code] ? `${why[code]} (${path})` : undefined;
}

/** The JSON shape of an error on every face: `{ code, message }`. */
export function errorObject(err: LoreError): { code: ErrorCode; message: string } {
  return { code: err.code, message: err.message };
}
