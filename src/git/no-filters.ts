/**
 * Config that turns off every clean/smudge filter the user's config names (git-lfs and the like): a
 * filter is a program, and git-lfs's clean writes into .git/lfs. An empty command means no filter.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { gitMaybe } from "./run.ts";

/**
 * What the config files git reads say about filters: none; some, in these files alone (their
 * stamps then say when git's list could change); or an include, which may bring in any file.
 */
function configFilters(cwd: string, commonDir: string): { kind: "none" } | { kind: "filters"; stamp: string } | { kind: "include" } {
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  let filters = false;
  const stamp: string[] = [];
  const own = gitDirOf(cwd);
  const files = [join(commonDir, "config"), join(commonDir, "config.worktree"), ...(own && own !== commonDir ? [join(own, "config.worktree")] : []), join(homedir(), ".gitconfig"), join(xdg, "git", "config"), "/etc/gitconfig"];
  for (const file of files) {
    let text: string;
    try {
      const st = statSync(file);
      stamp.push(`${file}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (/\[\s*include/i.test(text)) return { kind: "include" };
    if (/\[\s*filter/i.test(text)) filters = true;
  }
  return filters ? { kind: "filters", stamp: stamp.join("\0") } : { kind: "none" };
}

/** The flags git's answer gave, by work tree, while its config files keep their stamps (git-lfs's global filter: no git config per call; two gits at once ask once). */
const known = new Map<string, { stamp: string; args: Promise<string[]> }>();

/** The git dir of the work tree at `cwd` (its root): .git, or the one a linked worktree's .git file names. */
function gitDirOf(cwd: string): string | undefined {
  const dotGit = join(cwd, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    return resolve(cwd, /^gitdir: (.*)$/m.exec(readFileSync(dotGit, "utf8"))![1]!.trim());
  } catch {
    return undefined;
  }
}

/** The shared git dir of the work tree at `cwd`, read from the files; undefined where they do not say. */
function commonDirOf(cwd: string): string | undefined {
  const gitDir = gitDirOf(cwd);
  if (gitDir === undefined || gitDir === join(cwd, ".git")) return gitDir;
  try {
    // A linked worktree's git dir: its commondir file names the shared one.
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return undefined;
  }
}

/** `commonDir`: the repository's shared git dir; when known, config files without a filter spare the git call. */
export async function noFilterArgs(cwd: string, commonDir = commonDirOf(cwd)): Promise<string[]> {
  const config = commonDir === undefined ? undefined : configFilters(cwd, commonDir);
  if (config?.kind === "none") return [];
  const stamp = config?.kind === "filters" ? config.stamp : undefined;
  if (stamp === undefined) return askGit(cwd);
  const seen = known.get(cwd);
  if (seen?.stamp === stamp) return seen.args;
  const args = askGit(cwd);
  known.set(cwd, { stamp, args });
  // A failed ask is not kept.
  args.catch(() => known.get(cwd)?.args === args && known.delete(cwd));
  return args;
}

/** The flags that turn off each filter git's config names, as git itself lists them. */
async function askGit(cwd: string): Promise<string[]> {
  const out = await gitMaybe(["config", "--name-only", "-z", "--get-regexp", "^filter\\..*\\.(clean|smudge|process)$"], { cwd });
  if (!out) return [];
  const names = new Set<string>();
  for (const key of out.toString("utf8").split("\0")) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names].flatMap((n) => ["clean", "smudge", "process"].flatMap((k) => ["-c", `filter.${n}.${k}=`]).concat(["-c", `filter.${n}.required=false`]));
}
