/** How the git escape hatch is answered: the allow-list's argv, run without a shell, output cut at 64 KB. */
import { checkGitArgs } from "../../git/allow-list.ts";
import { repoRelativePath } from "../../git/repo-path.ts";
import { noFilterArgs } from "../../git/no-filters.ts";
import { gitCapped } from "../../git/run.ts";
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

/** Beyond gitEnv (no GIT_* of the caller: GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_SSH …): no editor, no askpass, no lazy fetch. */
function hardenedEnv(): Record<string, string> {
  // Paths as git reads them when typed (lore's own calls read every path literally).
  const env: Record<string, string> = { GIT_NO_LAZY_FETCH: "1", GIT_EDITOR: "true", GIT_SEQUENCE_EDITOR: "true", GIT_LITERAL_PATHSPECS: "0" };
  for (const k of ["EDITOR", "VISUAL", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE"]) if (process.env[k] !== undefined) env[k] = "";
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
  const r = await gitCapped([...READ_ONLY, ...(await noFilterArgs(root, ctx.index.repo.commonDir)), ...checked.argv], { cwd: root, env: hardenedEnv(), timeoutMs: TIMEOUT_MS }, MAX_STDOUT, MAX_STDERR);
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
