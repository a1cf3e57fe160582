/** Runs the git binary: never through a shell, with lore's own settings and environment (environment.ts), no program a repository names (no-programs.ts), every process tracked (processes.ts). */
import { spawn } from "node:child_process";
import { LoreError } from "../errors.ts";
import { BASE_ARGS, FETCH_ARGS, fetchEnv, gitEnv } from "./environment.ts";
import { filtersOff, withoutPrograms } from "./no-programs.ts";
import { encodePath, hasEscapedBytes } from "./paths.ts";
import { takePrefetched } from "./prefetch.ts";
import { endedByLore, killTree, track } from "./processes.ts";
import { DEFAULT_TIMEOUT_MS, gitFailure, launch, missingGit, stopped, timedOut, type GitOptions } from "./spawn.ts";
import { drainSpool, startSpool } from "./spool.ts";

export type { GitOptions } from "./spawn.ts";
export { gitFailure } from "./spawn.ts";

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

/**
 * Streams git's stdout to `onData` chunk by chunk and resolves when git exits 0.
 * `onData` may return a promise to apply back-pressure (git is paused meanwhile).
 */
export async function gitStream(given: readonly string[], opts: GitOptions, onData: (chunk: Uint8Array) => void | Promise<void>): Promise<void> {
  const args = await filtersOff(given, opts.cwd);
  const early = takePrefetched(args, opts);
  if (early) return drainSpool(early, onData);
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
  await drainSpool(takePrefetched(args, opts) ?? startSpool(args, opts), onData, lend);
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
