/**
 * A folder made once and shared by every test process that needs it (`bun test --parallel` runs
 * files in several): kept under the system's temporary folder by a hash of the sources it is made
 * with, made under a lock by the first process that asks, read by the others, never written again.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT, buildInfo } from "../../build/build-info.ts";

/** Folders of older sources are removed once they are this old. */
const STALE_MS = 6 * 3600_000;

/**
 * What lore is made of: every file under src/ and build/, the manifests, the lockfile, the commit it
 * names, and the bun that runs it. `commit: false` for a build that names no commit (the tests'
 * binary): it stays the same across commits of the same sources, and costs no git.
 */
export function sourceKey(opts: { commit?: boolean } = {}): string {
  const h = createHash("sha256").update(process.execPath).update(Bun.version);
  if (opts.commit !== false) h.update(JSON.stringify(buildInfo()));
  for (const top of ["src", "build"]) {
    const files = readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    for (const f of files) h.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
  }
  for (const f of ["package.json", "package-lock.json"]) if (existsSync(join(ROOT, f))) h.update(readFileSync(join(ROOT, f)));
  return h.digest("hex").slice(0, 16);
}

/** Old folders of the same kind, and locks left by a process that died mid-way, go. */
function sweep(prefix: string, keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(prefix) || join(tmpdir(), name) === keep || name === `${keep.split("/").pop()}.lock`) continue;
    const path = join(tmpdir(), name);
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The folder `<tmp>/<prefix><key>`, made by `make` (into an empty folder) in the first process that
 * asks; the others wait for its `done` mark, at most `timeoutMs` (a lock that old is a dead process's).
 */
export async function sharedFolder(prefix: string, key: string, make: (dir: string) => void | Promise<void>, timeoutMs: number): Promise<string> {
  const base = join(tmpdir(), `${prefix}${key}`);
  const lock = `${base}.lock`;
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(join(base, "done"))) {
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      // Another process makes it: wait for it (a lock older than the whole time allowed is a dead one's).
      const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (since > timeoutMs) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      try {
        if (!existsSync(join(base, "done"))) {
          rmSync(base, { recursive: true, force: true });
          mkdirSync(base, { recursive: true });
          await make(base);
          writeFileSync(join(base, "done"), "");
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      sweep(prefix, base);
      break;
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for another test process to make ${base}`);
    await Bun.sleep(250);
  }
  return base;
}
