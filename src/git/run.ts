/** Runs the git binary: never through a shell, with lore's own settings and environment (environment.ts), no program a repository names (no-programs.ts), every process tracked (processes.ts). */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoreError } from "../errors.ts";
import { BASE_ARGS, FETCH_ARGS, fetchEnv, gitEnv } from "./environment.ts";
import { filtersOff, withoutPrograms } from "./no-programs.ts";
import { encodePath, hasEscapedBytes } from "./paths.ts";
import { isBackground, lowPriorityPrefix } from "./priority.ts";
import { endedByLore, killTree, track } from "./processes.ts";

/** The program and arguments that start `command args`: behind nice/ionice when it is background work. */
function launch(command: string, args: readonly string[]): [string, string[]] {
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
const DEFAULT_TIMEOUT_MS = Number(process.env.LORE_GIT_TIMEOUT_MS) || 300_000;

function timedOut(args: readonly string[], opts: GitOptions): LoreError {
  return new LoreError("GIT_TIMEOUT", `git ${args[0]} did not finish within ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s; the repository may be very large or git may be hanging.`);
}

/** A git lore ended itself: not a failure of the repository, so no index records it as damage. */
function stopped(args: readonly string[]): LoreError {
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

/**
 * A JavaScript string cannot carry bytes that are not UTF-8 into argv. When an argument
 * holds such a name (escaped by decodePath), git is started by `xargs -0`, which reads
 * the exact bytes of every argument from stdin and execs git with them: still no shell.
 */
function spawnGit(args: readonly string[], opts: GitOptions) {
  const full = opts.fetching ? [...FETCH_ARGS, ...args] : [...BASE_ARGS, ...withoutPrograms(args)];
  const env = opts.fetching ? fetchEnv() : gitEnv(opts.env);
  if (full.some(hasEscapedBytes)) {
    if (opts.input !== undefined) throw new LoreError("BAD_ARGUMENT", "lore cannot send input to git together with a file name that is not UTF-8.");
    const child = spawn(...launch("xargs", ["-0", "-x", "-n", String(full.length + 1), "-s", "131072", "git"]), { cwd: opts.cwd, env, stdio: ["pipe", "pipe", "pipe"], shell: false, detached: true });
    track(child);
    child.stdin.on("error", () => {});
    child.stdin.end(Buffer.concat(full.map((a) => Buffer.concat([encodePath(a), Buffer.from([0])]))));
    return { child, stdinUsed: true };
  }
  // detached: git leads its own process group, so a timeout can end whatever it started.
  const child = spawn(...launch("git", full), { cwd: opts.cwd, env, stdio: ["pipe", "pipe", "pipe"], shell: false, detached: true });
  track(child);
  return { child, stdinUsed: false };
}

function missingGit(err: NodeJS.ErrnoException, cwd: string): LoreError {
  if (err.code === "ENOENT") {
    // spawn reports a missing cwd as ENOENT too.
    return new LoreError("GIT_MISSING", `Could not run git (is it installed and on the PATH, and does ${cwd} exist?). lore needs git 2.30 or newer.`, { cause: err });
  }
  return new LoreError("GIT_FAILED", `Could not run git: ${err.message}`, { cause: err });
}

/**
 * Streams git's stdout to `onData` chunk by chunk and resolves when git exits 0.
 * `onData` may return a promise to apply back-pressure (git is paused meanwhile).
 */
export async function gitStream(given: readonly string[], opts: GitOptions, onData: (chunk: Uint8Array) => void | Promise<void>): Promise<void> {
  const args = await filtersOff(given, opts.cwd);
  return new Promise((resolve, reject) => {
    const { child, stdinUsed } = spawnGit(args, opts);
    const errChunks: Buffer[] = [];
    let settled = false;
    let pending: Promise<void> = Promise.resolve();
    const finish = (err?: LoreError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        killTree(child);
        reject(err);
      } else resolve();
    };
    const timer = setTimeout(() => {
      finish(timedOut(args, opts));
    }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on("error", (err) => finish(missingGit(err as NodeJS.ErrnoException, opts.cwd)));
    child.stdout.on("data", (chunk: Buffer) => {
      const r = onData(chunk);
      if (r instanceof Promise) {
        child.stdout.pause();
        pending = pending.then(() => r).then(
          () => void child.stdout.resume(),
          (e) => finish(e instanceof LoreError ? e : new LoreError("INTERNAL", String(e))),
        );
      }
    });
    child.stderr.on("data", (chunk: Buffer) => errChunks.push(chunk));
    child.stdin.on("error", () => {});
    if (stdinUsed) {
      // xargs owns stdin.
    } else if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
    child.on("close", (code) => {
      pending.then(() => {
        if (code === 0) finish();
        else finish(endedByLore(child) ? stopped(args) : gitFailure(args, code, Buffer.concat(errChunks).toString("utf8")));
      }, () => {});
    });
  });
}

/** Runs git and returns all of its stdout. */
export async function git(args: readonly string[], opts: GitOptions): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  await gitStream(args, opts, (c) => {
    chunks.push(c);
  });
  return Buffer.concat(chunks);
}

/** Runs git and returns stdout as text without the trailing newline. */
export async function gitText(args: readonly string[], opts: GitOptions): Promise<string> {
  return (await git(args, opts)).toString("utf8").replace(/\n$/, "");
}

/** Runs git; resolves to null instead of throwing when git exits non-zero (a question with a "no" answer). */
export async function gitMaybe(args: readonly string[], opts: GitOptions): Promise<Buffer | null> {
  try {
    return await git(args, opts);
  } catch (err) {
    if (err instanceof LoreError && (err.code === "GIT_FAILED" || err.code === "BAD_REVISION")) return null;
    throw err;
  }
}

/**
 * Like gitStream, but git writes to a temporary file that is read as it grows. A pipe
 * holds 64 KiB: while lore parses and stores a batch, git would stall on a full pipe;
 * with a file, git runs on one core while lore works on the other.
 */
export async function gitSpool(
  given: readonly string[],
  opts: GitOptions,
  onData: (chunk: Uint8Array) => void | Promise<void>,
  /** The caller keeps nothing of a chunk once onData has settled: each chunk is then lent, not copied (a megabyte of garbage fewer each). */
  lend = false,
): Promise<void> {
  const args = await filtersOff(given, opts.cwd);
  const dir = mkdtempSync(join(tmpdir(), "lore-spool-"));
  const file = join(dir, "out");
  const writeFd = openSync(file, "w", 0o600);
  const readFd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  let offset = 0;
  const drain = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = readSync(readFd, buf, 0, buf.length, offset);
      if (n <= 0) return total;
      offset += n;
      total += n;
      await onData(lend ? buf.subarray(0, n) : Buffer.from(buf.subarray(0, n)));
    }
  };
  try {
    const child = spawn(...launch("git", [...BASE_ARGS, ...withoutPrograms(args)]), { cwd: opts.cwd, env: gitEnv(opts.env), stdio: ["ignore", writeFd, "pipe"], shell: false, detached: true });
    track(child);
    const errChunks: Buffer[] = [];
    child.stderr!.on("data", (c: Buffer) => errChunks.push(c));
    let exit: number | null | undefined;
    let spawnError: Error | undefined;
    child.on("error", (e) => (spawnError = e));
    child.on("close", (code) => (exit = code));
    const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    while (exit === undefined && !spawnError) {
      if ((await drain()) === 0) await new Promise((r) => setTimeout(r, 2));
      if (Date.now() > deadline) {
        killTree(child);
        throw timedOut(args, opts);
      }
    }
    if (spawnError) throw missingGit(spawnError as NodeJS.ErrnoException, opts.cwd);
    await drain();
    if (exit !== 0) throw endedByLore(child) ? stopped(args) : gitFailure(args, exit ?? null, Buffer.concat(errChunks).toString("utf8"));
  } finally {
    closeSync(writeFd);
    closeSync(readFd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs git for someone else (the escape hatch): any exit status is an answer, stdout is kept up to
 * `maxStdout` bytes (git is stopped once past it: `cut`), stderr up to `maxStderr`.
 */
export function gitCapped(args: readonly string[], opts: GitOptions, maxStdout: number, maxStderr: number): Promise<{ code: number; stdout: Buffer; stderr: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    // The same start as every git: tracked (a stopping daemon ends it), names that are not UTF-8 through xargs.
    const { child, stdinUsed } = spawnGit(args, opts);
    if (!stdinUsed) child.stdin.end();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let cut = false;
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      killTree(child);
    }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on("data", (c: Buffer) => {
      if (cut) return;
      out.push(c);
      outBytes += c.length;
      if (outBytes > maxStdout) {
        cut = true;
        killTree(child);
      }
    });
    child.stderr.on("data", (c: Buffer) => {
      if (errBytes < maxStderr) err.push(c);
      errBytes += c.length;
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(missingGit(e as NodeJS.ErrnoException, opts.cwd));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (late) reject(timedOut(args.filter((a) => !a.startsWith("-c") && !a.includes("=")), opts));
      else resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err), cut });
    });
  });
}
