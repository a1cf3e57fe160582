/** One release build for every test file that checks it (bun runs the files in one process): archives, formula and npm packages, unpacked once. */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, buildInfo } from "../../build/build-info.ts";
import { RELEASE_TARGETS, archiveName } from "../../build/targets.ts";

export interface BuiltRelease {
  /** A scratch folder that lives as long as the test process. */
  tmp: string;
  /** What `npm run release --out` wrote. */
  dir: string;
  /** Where a platform's archive was unpacked. */
  unpacked: (os: string, arch: string) => string;
}

let built: Promise<BuiltRelease> | undefined;

export const BUILD_TIMEOUT_MS = 300_000;

export function builtRelease(): Promise<BuiltRelease> {
  built ??= (async () => {
    const info = buildInfo();
    const tmp = mkdtempSync(join(tmpdir(), "lore-release-test-"));
    process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
    const dir = join(tmp, "release");
    const r = spawnSync(process.execPath, [join(ROOT, "build/release.ts"), "--out", dir], { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`release build failed:\n${r.stderr}`);
    const unpacked = (os: string, arch: string) => join(tmp, "unpacked", `${os}_${arch}`);
    for (const t of RELEASE_TARGETS) {
      const to = unpacked(t.os, t.arch);
      mkdirSync(to, { recursive: true });
      const x = spawnSync("tar", ["-xzf", join(dir, archiveName(info.version, t)), "-C", to], { encoding: "utf8" });
      if (x.status !== 0) throw new Error(`cannot unpack ${t.os}/${t.arch}: ${x.stderr}`);
    }
    return { tmp, dir, unpacked };
  })();
  return built;
}
