/** How the git escape hatch is answered: the allow-list's argv, run without a shell, output cut at 64 KB. */
import { spawn } from "node:child_process";
import { checkGitArgs } from "../../git/allow-list.ts";
import { repoRelativePath } from "../../git/repo-path.ts";
import { noFilterArgs } from "../../git/no-filters.ts";
import { BASE_ARGS, gitEnv } from "../../git/run.ts";
import { LoreError } from "../../errors.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { GIT_ARGS, GitOutput } from "../git.ts";

export const MAX_STDOUT = 64 * 1024;
const MAX_STDERR = 8 * 1024;
const TIMEOUT_MS = Math.min(Number(process.env.LORE_GIT_TIMEOUT_MS) || 30_000, 30_000);

/**
 * Global options put before the subcommand: diff refreshes (rewrites) .git/index without
 * diff.autoRefreshIndex=false; a partial clone would fetch missing objects without protocol.allow=never.
 */
const READ_ONLY = ["-c", "diff.autoRefreshIndex=false", "-c", "protocol.allow=never", "-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0"];

/** The env git runs with: no GIT_* of the caller (GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_SSH …), no editor, no lazy fetch. */
function hardenedEnv(): Record<string, string> {
  const env = gitEnv({ GIT_NO_LAZY_FETCH: "1", GIT_EDITOR: "true", GIT_SEQUENCE_EDITOR: "true" });
  for (const k of ["EDITOR", "VISUAL", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE"]) delete env[k];
  return env;
}

/** Text cut at `max` bytes on a line end where one is near, never inside a UTF-8 character. */
export function cutText(buf: Buffer, max: number): string {
  if (buf.length <= max) return buf.toString("utf8");
  let end = max;
  const nl = buf.lastIndexOf(0x0a, max - 1);
  if (nl > max / 2) end = nl + 1;
  else while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

function runGit(argv: string[], cwd: string, extra: string[]): Promise<{ code: number; stdout: Buffer; stderr: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...BASE_ARGS, ...READ_ONLY, ...extra, ...argv], { cwd, env: hardenedEnv(), stdio: ["ignore", "pipe", "pipe"], shell: false, detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let cut = false;
    let timedOut = false;
    const kill = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, TIMEOUT_MS);
    child.stdout.on("data", (c: Buffer) => {
      if (cut) return;
      out.push(c);
      outBytes += c.length;
      // Enough to fill the answer: git need not walk the rest.
      if (outBytes > MAX_STDOUT) {
        cut = true;
        kill();
      }
    });
    child.stderr.on("data", (c: Buffer) => {
      if (errBytes < MAX_STDERR) err.push(c);
      errBytes += c.length;
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new LoreError("GIT_MISSING", `Could not run git: ${e.message}`, { cause: e }));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new LoreError("GIT_TIMEOUT", `git ${argv[0]} did not finish within ${TIMEOUT_MS / 1000} s; narrow the command (a path, -n, a revision range).`));
      else resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err), cut });
    });
  });
}

export async function run(ctx: QueryContext, input: Input<typeof GIT_ARGS>): Promise<GitOutput> {
  const root = ctx.index.repo.root;
  const checked = checkGitArgs(input.args);
  for (const p of checked.paths) {
    try {
      repoRelativePath(root, p);
    } catch (e) {
      if (e instanceof LoreError && e.code === "PATH_OUTSIDE_REPO") throw new LoreError("NOT_ALLOWED", `${p} is outside the repository at ${root}: lore git reads only inside it.`);
      throw e;
    }
  }
  // Clean/smudge filters are programs (git diff and status run clean on changed files): off.
  const r = await runGit(checked.argv, root, await noFilterArgs(root, ctx.index.repo.commonDir));
  const truncated = r.cut || r.stdout.length > MAX_STDOUT;
  return {
    repo: root,
    args: checked.argv,
    exitCode: r.cut ? 0 : r.code,
    stdout: cutText(r.stdout, MAX_STDOUT),
    stderr: cutText(r.stderr, MAX_STDERR),
    truncated,
  };
}
