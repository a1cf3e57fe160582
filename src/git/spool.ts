/**
 * git writing its stdout to an unnamed temporary file that lore reads as it grows: started at one moment and
 * read then or later (a prefetch reads it after other work), or ended unread.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_ARGS, gitEnv } from "./environment.ts";
import { withoutPrograms } from "./no-programs.ts";
import { endedByLore, killTree, track } from "./processes.ts";
import { DEFAULT_TIMEOUT_MS, gitFailure, launch, missingGit, stopped, timedOut, type GitOptions } from "./spawn.ts";

export interface Spool {
  readonly args: readonly string[];
  readonly opts: GitOptions;
  readonly child: ReturnType<typeof spawn>;
  readonly deadline: number;
  /** undefined while git runs. */
  exit: number | null | undefined;
  spawnError?: Error;
  readonly errChunks: Buffer[];
  readonly writeFd: number;
  readonly readFd: number;
  closed: boolean;
}

/** The spools not yet closed: a process ended by a signal ends their git (dropAllSpools). */
const open = new Set<Spool>();

/** Starts git (args already past filtersOff) with its stdout going to a new temporary file. */
export function startSpool(args: readonly string[], opts: GitOptions): Spool {
  const dir = mkdtempSync(join(tmpdir(), "lore-spool-"));
  const file = join(dir, "out");
  const writeFd = openSync(file, "w", 0o600);
  const readFd = openSync(file, "r");
  // The file lives as long as its two descriptors: nothing is left in the temporary folder, even
  // when this process is killed outright (SIGKILL, a crash) before it could clean up.
  rmSync(dir, { recursive: true, force: true });
  let child: ReturnType<typeof spawn>;
  try {
    // detached: git leads its own process group, so a timeout can end whatever it started.
    child = spawn(...launch("git", [...BASE_ARGS, ...withoutPrograms(args)]), { cwd: opts.cwd, env: gitEnv(opts.env), stdio: ["ignore", writeFd, "pipe"], shell: false, detached: true });
  } catch (err) {
    closeSync(writeFd);
    closeSync(readFd);
    throw err;
  }
  track(child);
  const s: Spool = { args, opts, child, deadline: Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS), exit: undefined, errChunks: [], writeFd, readFd, closed: false };
  child.stderr!.on("data", (c: Buffer) => s.errChunks.push(c));
  child.on("error", (e) => (s.spawnError = e));
  child.on("close", (code) => (s.exit = code));
  open.add(s);
  return s;
}

function close(s: Spool): void {
  if (s.closed) return;
  s.closed = true;
  open.delete(s);
  closeSync(s.writeFd);
  closeSync(s.readFd);
}

/** Ends every spool of this process, read or not (a signal is ending it): git stopped, descriptors closed. */
export function dropAllSpools(): void {
  for (const s of [...open]) dropSpool(s);
}

/** Ends a spool nobody will read: git is stopped (with what it started) and its file closed. */
export function dropSpool(s: Spool): void {
  if (s.exit === undefined && !s.spawnError) killTree(s.child);
  close(s);
}

/**
 * Hands everything git wrote to `onData` as it comes, until git exits; throws git's failure as lore's error.
 * `lend`: the caller keeps nothing of a chunk once onData has settled, so each chunk is lent, not copied.
 */
export async function drainSpool(s: Spool, onData: (chunk: Uint8Array) => void | Promise<void>, lend = false): Promise<void> {
  const buf = Buffer.allocUnsafe(1 << 20);
  let offset = 0;
  const drain = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = readSync(s.readFd, buf, 0, buf.length, offset);
      if (n <= 0) return total;
      offset += n;
      total += n;
      await onData(lend ? buf.subarray(0, n) : Buffer.from(buf.subarray(0, n)));
    }
  };
  try {
    while (s.exit === undefined && !s.spawnError) {
      if ((await drain()) === 0) await new Promise((r) => setTimeout(r, 2));
      if (Date.now() > s.deadline) {
        killTree(s.child);
        throw timedOut(s.args, s.opts);
      }
    }
    if (s.spawnError) throw missingGit(s.spawnError as NodeJS.ErrnoException, s.opts.cwd);
    await drain();
    if (s.exit !== 0) throw endedByLore(s.child) ? stopped(s.args) : gitFailure(s.args, s.exit ?? null, Buffer.concat(s.errChunks).toString("utf8"));
  } catch (err) {
    // onData gave up (or git failed): a git still writing is not left behind.
    if (s.exit === undefined) killTree(s.child);
    throw err;
  } finally {
    close(s);
  }
}
