/** A clone of this repository with the work tree's uncommitted changes on top, as a newcomer would have it after pulling them. */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../../build/build-info.ts";

export function freshClone(dir: string): string {
  const clone = spawnSync("git", ["clone", "-q", ROOT, dir], { encoding: "utf8" });
  if (clone.status !== 0) throw new Error(clone.stderr);
  const changed = spawnSync("git", ["ls-files", "-z", "-m", "-o", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\0").filter(Boolean);
  for (const f of changed) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  for (const f of spawnSync("git", ["ls-files", "-z", "-d"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\0").filter(Boolean)) rmSync(join(dir, f), { force: true });
  return dir;
}
