/** What starting git takes and how it fails: the options of one run, the program line, the stable errors of a git that did not finish. */
import { LoreError } from "../errors.ts";
import { isBackground, lowPriorityPrefix } from "./priority.ts";

/** The program and arguments that start `command args`: behind nice/ionice when it is background work. */
export function launch(command: string, args: readonly string[]): [string, string[]] {
  const low = isBackground() ? lowPriorityPrefix() : [];
  return low.length ? [low[0]!, [...low.slice(1), command, ...args]] : [command, [...args]];
}

export interface GitOptions {
  /** Directory git runs in (the repository root). */
  cwd: string;
  /** Extra environment, e.g. lore's own commit-graph via GIT_OBJECT_DIRECTORY. */
  env?: Record<string, string>;
  /** Kill git after this long; a hung git becomes GIT_TIMEOUT. */
  timeoutMs?: number;
  /** Bytes written to git's stdin. */
  input?: string | Uint8Array;
  /** A git that fetches into lore serve's own clones (FETCH_ARGS, fetchEnv), not one that reads a user's repository. */
  fetching?: true;
}

/** How long one git command may run; LORE_GIT_TIMEOUT_MS overrides (tests, huge repositories). */
export const DEFAULT_TIMEOUT_MS = Number(process.env.LORE_GIT_TIMEOUT_MS) || 300_000;

export function timedOut(args: readonly string[], opts: GitOptions): LoreError {
  return new LoreError("GIT_TIMEOUT", `git ${args[0]} did not finish within ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s; the repository may be very large or git may be hanging.`);
}

/** A git lore ended itself: not a failure of the repository, so no index records it as damage. */
export function stopped(args: readonly string[]): LoreError {
  return new LoreError("GIT_STOPPED", `git ${args[0]} was stopped by lore before it finished (its deadline passed or lore is stopping); ask again.`);
}

/** Maps git's complaint to a stable lore error. */
export function gitFailure(args: readonly string[], code: number | null, stderr: string): LoreError {
  const text = stderr.trim();
  const first = text.split("\n").find((l) => l.trim() !== "") ?? `exit status ${code}`;
  if (/not a git repository/i.test(text)) return new LoreError("NOT_A_REPO", "This folder is not inside a git repository; run lore inside one or pass --repo DIR.");
  if (/detected dubious ownership/i.test(text))
    return new LoreError("NOT_A_REPO", `git refuses this repository because another user owns it; run: git config --global --add safe.directory <path>. (${first})`);
  if (/unknown revision|bad revision|ambiguous argument|invalid object name|not a valid object name|bad object/i.test(text))
    return new LoreError("BAD_REVISION", `git does not know that revision: ${first.replace(/^fatal: /, "")}`);
  const verb = args.find((a) => !a.startsWith("-") && !a.includes("=")) ?? "git";
  if (/from promisor remote|lazy fetching disabled|transport '[^']*' not allowed/i.test(text))
    return new LoreError(
      "GIT_FAILED",
      `git ${verb} needs file contents this partial clone does not have, and lore never downloads them (git itself would fetch them from the remote). ${(text.split("\n").find((l) => l.startsWith("fatal:")) ?? first).replace(/^fatal: /, "")}`,
    );
  const shortRead = /short read while indexing (.+)$/m.exec(text);
  if (shortRead) return new LoreError("GIT_FAILED", `${shortRead[1]} changed while git ${verb} read it; ask again once it is saved.`);
  return new LoreError("GIT_FAILED", `git ${verb} failed: ${first.replace(/^fatal: /, "")}`);
}

export function missingGit(err: NodeJS.ErrnoException, cwd: string): LoreError {
  if (err.code === "ENOENT") {
    // spawn reports a missing cwd as ENOENT too.
    return new LoreError("GIT_MISSING", `Could not run git (is it installed and on the PATH, and does ${cwd} exist?). lore needs git 2.30 or newer.`, { cause: err });
  }
  return new LoreError("GIT_FAILED", `Could not run git: ${err.message}`, { cause: err });
}

