/**
 * The corpus bundles (express.bundle: 6,158 commits; hono.bundle) in $LORE_CORPUS, default
 * ../shared/corpus beside the project: whether the tests that need them run, and clones of them.
 * Without the folder those tests are skipped with one line saying how to run them; under
 * CI=true they run and fail instead, so a CI that lost its corpus never passes quietly.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { runGit, tempDir } from "./git-repo.ts";

export const CORPUS = resolve(process.env.LORE_CORPUS || join(import.meta.dir, "..", "..", "..", "shared", "corpus"));
export const EXPRESS_BUNDLE = join(CORPUS, "express.bundle");

const present = existsSync(EXPRESS_BUNDLE);
const ci = process.env.CI === "true" || process.env.CI === "1";

/** Whether the tests that need the express corpus run: it is here, or CI insists (and they fail without it). */
export const hasExpress = present || ci;

if (!present && !ci)
  console.warn(`lore tests: ${EXPRESS_BUNDLE} is missing, so the tests that need the express corpus are skipped; put express.bundle there or set LORE_CORPUS=<folder with it>.`);

/** Clones express into a new temporary folder (or into `dir`, whose parent exists) and returns the clone's path. */
export function cloneExpress(dir = join(tempDir(), "express")): string {
  if (!present) throw new Error(`The express corpus is missing: ${EXPRESS_BUNDLE}. Put express.bundle there or set LORE_CORPUS=<folder with it> (CI=true does not skip these tests).`);
  runGit(join(dir, ".."), ["clone", "-q", EXPRESS_BUNDLE, dir]);
  return dir;
}

export const HONO_BUNDLE = join(CORPUS, "hono.bundle");

/** Whether the tests that need the hono corpus run (as hasExpress). */
export const hasHono = existsSync(HONO_BUNDLE) || ci;

/** Clones hono (2,790 commits) into a new temporary folder and returns the clone's path. */
export function cloneHono(dir = join(tempDir(), "hono")): string {
  if (!existsSync(HONO_BUNDLE)) throw new Error(`The hono corpus is missing: ${HONO_BUNDLE}. Put hono.bundle there or set LORE_CORPUS=<folder with it>.`);
  runGit(join(dir, ".."), ["clone", "-q", HONO_BUNDLE, dir]);
  return dir;
}
