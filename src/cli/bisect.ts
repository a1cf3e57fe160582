/**
 * --bisect: confirms suspects by running the user's command in throwaway checkouts of each suspect
 * and its parent, made with git archive in a temporary folder outside the repository (lore never
 * writes to the repository: no worktree, no bisect refs). git bisect run's convention: exit 0 good,
 * 125 skip, anything else bad. The command runs with a shell because the user wrote a shell command;
 * nothing of the repository is put into it (the revision goes in LORE_BISECT_REV). Every checkout is
 * removed, also on Ctrl-C.
 */
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { git } from "../git/run.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Verdict = "good" | "bad" | "skip" | "timeout";

export interface Confirmed {
  sha: string;
  parent: Verdict;
  suspect: Verdict;
  /** Its parent passes and it fails: this commit broke it. */
  confirmed: boolean;
}

const live = new Set<string>();
const children = new Set<number>();

function cleanUp(): void {
  for (const pid of children) try { process.kill(-pid, "SIGKILL"); } catch {}
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/** Runs a program without a shell; resolves with its exit code (null when killed). */
function exec(cmd: string, args: string[], opts: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; stdin?: NodeJS.ReadableStream; out?: "ignore" | "stderr" }): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: [opts.stdin ? "pipe" : "ignore", opts.out === "stderr" ? 2 : "ignore", opts.out === "stderr" ? 2 : "ignore"] });
    if (child.pid) children.add(child.pid);
    if (opts.stdin) opts.stdin.pipe(child.stdin!);
    const timer = opts.timeoutMs ? setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), opts.timeoutMs) : undefined;
    child.on("error", fail);
    child.on("close", (code) => {
      if (timer) clearTimeout(timer);
      if (child.pid) children.delete(child.pid);
      done(code);
    });
  });
}

/** A checkout of `rev` in a new temporary folder: git archive into tar, no shell. */
async function checkout(root: string, rev: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "lore-bisect-"));
  live.add(dir);
  // git runs as every git of lore's does (git/run.ts); tar reads the archive from its stdin.
  const archive = await git(["archive", "--format=tar", rev], { cwd: root });
  const code = await exec("tar", ["-x", "-f", "-", "-C", dir], { cwd: dir, stdin: Readable.from([archive]) });
  if (code !== 0) throw new Error(`git archive of ${rev} could not be unpacked`);
  return dir;
}

async function step(root: string, rev: string, command: string, timeoutMs: number): Promise<Verdict> {
  const dir = await checkout(root, rev);
  try {
    const code = await exec("/bin/sh", ["-c", command], { cwd: dir, timeoutMs, env: { ...process.env, LORE_BISECT_REV: rev }, out: "stderr" });
    if (code === null) return "timeout";
    return code === 0 ? "good" : code === 125 ? "skip" : "bad";
  } finally {
    rmSync(dir, { recursive: true, force: true });
    live.delete(dir);
  }
}

/** Each suspect and its parent, in order; `log` gets a line per step (stderr). */
export async function confirm(root: string, suspects: { sha: string; parent: string }[], command: string, timeoutMs: number, log: (line: string) => void): Promise<Confirmed[]> {
  const onSignal = () => {
    cleanUp();
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const out: Confirmed[] = [];
    for (const [i, s] of suspects.entries()) {
      log(`bisect ${i + 1}/${suspects.length}: ${s.sha} — its parent first`);
      const parent = await step(root, s.parent, command, timeoutMs);
      const suspect = parent === "good" ? await step(root, s.sha, command, timeoutMs) : "skip";
      const confirmed = parent === "good" && suspect === "bad";
      log(`  parent ${parent}, ${s.sha} ${suspect}${confirmed ? ": this commit broke it" : ""}`);
      out.push({ sha: s.sha, parent, suspect, confirmed });
      if (confirmed) break;
    }
    return out;
  } finally {
    cleanUp();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
