/**
 * One release build for every test file that checks it: archives, formula and npm packages, unpacked
 * once, kept under the system's temporary folder by a hash of what it is built from, so that test
 * files in other processes (`bun test --parallel`, a second run) use it too instead of building again.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, buildInfo } from "../../build/build-info.ts";
import { RELEASE_TARGETS, archiveName } from "../../build/targets.ts";

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
/** Builds of older sources are removed once they are this old. */
const STALE_MS = 6 * 3600_000;

/** What the release is made of: every file under src/ and build/, the manifests, the lockfile, the commit it names, and the bun that compiles. */
function sourceKey(): string {
  const h = createHash("sha256").update(process.execPath).update(Bun.version).update(JSON.stringify(buildInfo()));
  for (const top of ["src", "build"]) {
    const files = readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    for (const f of files) h.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
  }
  for (const f of ["package.json", "package-lock.json"]) if (existsSync(join(ROOT, f))) h.update(readFileSync(join(ROOT, f)));
  return h.digest("hex").slice(0, 16);
}

/** Builds the release into `base` and unpacks each archive; writes `done` last. */
function build(base: string): void {
  const info = buildInfo();
  rmSync(base, { recursive: true, force: true });
  const dir = join(base, "release");
  const r = spawnSync(process.execPath, [join(ROOT, "build/release.ts"), "--out", dir], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`release build failed:\n${r.stderr}`);
  for (const t of RELEASE_TARGETS) {
    const to = join(base, "unpacked", `${t.os}_${t.arch}`);
    mkdirSync(to, { recursive: true });
    const x = spawnSync("tar", ["-xzf", join(dir, archiveName(info.version, t)), "-C", to], { encoding: "utf8" });
    if (x.status !== 0) throw new Error(`cannot unpack ${t.os}/${t.arch}: ${x.stderr}`);
  }
  writeFileSync(join(base, "done"), "");
}

/** Old builds of other sources, and locks left by a process that died mid-build, go. */
function sweep(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith("lore-release-cache-") || join(tmpdir(), name) === keep || name === `${keep.split("/").pop()}.lock`) continue;
    const path = join(tmpdir(), name);
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

async function sharedBuild(): Promise<string> {
  const base = join(tmpdir(), `lore-release-cache-${sourceKey()}`);
  const lock = `${base}.lock`;
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!existsSync(join(base, "done"))) {
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      // Another process builds: wait for it (a lock older than a build's time is a dead one's).
      const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (since > BUILD_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      try {
        if (!existsSync(join(base, "done"))) build(base);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      sweep(base);
      break;
    }
    if (Date.now() > deadline) throw new Error(`waited ${BUILD_TIMEOUT_MS / 1000} s for another test process's release build (${lock})`);
    await Bun.sleep(500);
  }
  return base;
}

export function builtRelease(): Promise<BuiltRelease> {
  built ??= (async () => {
    const base = await sharedBuild();
    const tmp = mkdtempSync(join(tmpdir(), "lore-release-test-"));
    process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
    return { tmp, dir: join(base, "release"), unpacked: (os: string, arch: string) => join(base, "unpacked", `${os}_${arch}`) };
  })();
  return built;
}
