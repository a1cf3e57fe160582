/** The version and commit a build bakes in: version from package.json, commit from git. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

export interface BuildInfo {
  version: string;
  commit: string;
  /** Seconds since the epoch: SOURCE_DATE_EPOCH, else the commit's time, so archives are reproducible. */
  time: number;
}

export function buildInfo(): BuildInfo {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const commitTime = Number(git("log", "-1", "--format=%ct") ?? NaN);
  const time = Number(process.env.SOURCE_DATE_EPOCH ?? commitTime);
  return {
    version: pkg.version,
    // A source tarball or a repository without commits still builds; the binary then says "unknown".
    commit: git("rev-parse", "--short", "HEAD") ?? "unknown",
    time: Number.isFinite(time) ? time : Math.floor(Date.now() / 1000),
  };
}

function git(...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}
