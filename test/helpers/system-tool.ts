/** A program some tests need from the system (zsh, fish, ruby): found on PATH, or skipped with one line saying so — except under CI=true, which installs them (.ci/run) and fails without. */
import { spawnSync } from "node:child_process";

export function systemTool(name: string, why: string): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const path = found.status === 0 ? found.stdout.trim() : "";
  if (path) return path;
  if (process.env.CI === "true") throw new Error(`${name} is missing (CI=true): .ci/run installs Debian's ${name}; ${why} cannot be checked without it.`);
  console.warn(`skipped: ${why} (no ${name} here; apt-get install ${name})`);
  return undefined;
}
