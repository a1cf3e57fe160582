/** The person asking: `git config user.email`, asked of git again only when a config file it reads changed. */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gitMaybe } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

const known = new Map<string, { stamp: string; email: string | undefined }>();

/** Size and mtime of each file git reads its config from (the system's, the user's, the repository's, the worktree's). */
function configStamp(ctx: QueryContext): string {
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  const files = ["/etc/gitconfig", join(homedir(), ".gitconfig"), join(xdg, "git", "config"), join(ctx.index.repo.commonDir, "config"), join(ctx.index.repo.gitDir, "config.worktree")];
  return files
    .map((f) => {
      try {
        const st = statSync(f);
        return `${st.size}:${st.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join(" ");
}

/** A review answers every few seconds while an agent works: one git process fewer each time (a file named by include.path is not watched). */
export async function userEmail(ctx: QueryContext): Promise<string | undefined> {
  const stamp = configStamp(ctx);
  const key = ctx.index.repo.gitDir;
  const seen = known.get(key);
  if (seen?.stamp === stamp) return seen.email;
  const email = (await gitMaybe(["config", "user.email"], ctx.index.git))?.toString("utf8").trim() || undefined;
  if (known.size > 1000) known.clear();
  known.set(key, { stamp, email });
  return email;
}
