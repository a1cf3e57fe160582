/** The express corpus (../shared/corpus/express.bundle, 6,158 commits): whether it is here, and a fresh clone of it. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit, tempDir } from "./git-repo.ts";

export const EXPRESS_BUNDLE = join(import.meta.dir, "..", "..", "..", "shared", "corpus", "express.bundle");

/** False where the corpus is missing: tests that need it are skipped. */
export const hasExpress = existsSync(EXPRESS_BUNDLE);

/** Clones express into a new temporary folder (or into `dir`, whose parent exists) and returns the clone's path. */
export function cloneExpress(dir = join(tempDir(), "express")): string {
  runGit(join(dir, ".."), ["clone", "-q", EXPRESS_BUNDLE, dir]);
  return dir;
}
