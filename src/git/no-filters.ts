/**
 * Config that turns off every clean/smudge filter the user's config names (git-lfs and the like): a
 * filter is a program, and git-lfs's clean writes into .git/lfs. An empty command means no filter.
 */
import { gitMaybe } from "./run.ts";

export async function noFilterArgs(cwd: string): Promise<string[]> {
  const out = await gitMaybe(["config", "--name-only", "-z", "--get-regexp", "^filter\\..*\\.(clean|smudge|process)$"], { cwd });
  if (!out) return [];
  const names = new Set<string>();
  for (const key of out.toString("utf8").split("\0")) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names].flatMap((n) => ["clean", "smudge", "process"].flatMap((k) => ["-c", `filter.${n}.${k}=`]).concat(["-c", `filter.${n}.required=false`]));
}
