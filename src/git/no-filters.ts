/**
 * Config that turns off every clean/smudge filter the user's config names (git-lfs and the like): a
 * filter is a program, and git-lfs's clean writes into .git/lfs. An empty command means no filter.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { gitMaybe } from "./run.ts";

/** Whether any config file git reads may name a filter (an include may bring one in: then ask git). */
function mayHaveFilters(commonDir: string): boolean {
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  for (const file of [join(commonDir, "config"), join(commonDir, "config.worktree"), join(homedir(), ".gitconfig"), join(xdg, "git", "config"), "/etc/gitconfig"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (/\[\s*(filter|include)/i.test(text)) return true;
  }
  return false;
}

/** The shared git dir of the work tree at `cwd` (its root), read from the files; undefined where they do not say. */
function commonDirOf(cwd: string): string | undefined {
  const dotGit = join(cwd, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    // A linked worktree: .git names its git dir, whose commondir file names the shared one.
    const gitDir = resolve(cwd, /^gitdir: (.*)$/m.exec(readFileSync(dotGit, "utf8"))![1]!.trim());
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return undefined;
  }
}

/** `commonDir`: the repository's shared git dir; when known, config files without a filter spare the git call. */
export async function noFilterArgs(cwd: string, commonDir = commonDirOf(cwd)): Promise<string[]> {
  if (commonDir !== undefined && !mayHaveFilters(commonDir)) return [];
  const out = await gitMaybe(["config", "--name-only", "-z", "--get-regexp", "^filter\\..*\\.(clean|smudge|process)$"], { cwd });
  if (!out) return [];
  const names = new Set<string>();
  for (const key of out.toString("utf8").split("\0")) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names].flatMap((n) => ["clean", "smudge", "process"].flatMap((k) => ["-c", `filter.${n}.${k}=`]).concat(["-c", `filter.${n}.required=false`]));
}
