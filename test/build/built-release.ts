/**
 * One release build for every test file that checks it: archives, formula and npm packages, unpacked
 * once, kept under the system's temporary folder by a hash of what it is built from, so that test
 * files in other processes (`bun test --parallel`, a second run) use it too instead of building again.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, buildInfo } from "../../build/build-info.ts";
import { RELEASE_TARGETS, archiveName } from "../../build/targets.ts";
import { sharedFolder, sourceKey } from "../helpers/shared-folder.ts";

export interface BuiltRelease {
  /** A scratch folder that lives as long as the test process. */
  tmp: string;
  /** What `npm run release --out` wrote (shared: read it, never write into it). */
  dir: string;
  /** Where a platform's archive was unpacked (shared too). */
  unpacked: (os: string, arch: string) => string;
}

let built: Promise<BuiltRelease> | undefined;

export const BUILD_TIMEOUT_MS = 300_000;

/** Builds the release into `base` and unpacks each archive. */
function build(base: string): void {
  const info = buildInfo();
  const dir = join(base, "release");
  const r = spawnSync(process.execPath, [join(ROOT, "build/release.ts"), "--out", dir], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`release build failed:\n${r.stderr}`);
  for (const t of RELEASE_TARGETS) {
    const to = join(base, "unpacked", `${t.os}_${t.arch}`);
    mkdirSync(to, { recursive: true });
    const x = spawnSync("tar", ["-xzf", join(dir, archiveName(info.version, t)), "-C", to], { encoding: "utf8" });
    if (x.status !== 0) throw new Error(`cannot unpack ${t.os}/${t.arch}: ${x.stderr}`);
  }
}

/** This process's scratch folder, made when a test first asks for it. */
let scratch: string | undefined;

export function builtRelease(): Promise<BuiltRelease> {
  built ??= (async () => {
    const base = await sharedFolder("lore-release-cache-", sourceKey(), build, BUILD_TIMEOUT_MS);
    return {
      get tmp() {
        if (scratch) return scratch;
        const made = (scratch = mkdtempSync(join(tmpdir(), "lore-release-test-")));
        process.on("exit", () => rmSync(made, { recursive: true, force: true }));
        return made;
      },
      dir: join(base, "release"),
      unpacked: (os: string, arch: string) => join(base, "unpacked", `${os}_${arch}`),
    };
  })();
  return built;
}

/**
 * Removes this process's scratch folder: each test file that uses it calls this after its tests, since
 * a worker of `bun test --parallel` can end without an "exit" event (a clean run left 113-224 MB each).
 */
export function discardScratch(): void {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}
