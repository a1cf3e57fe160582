/**
 * Corpus clones that lore has already indexed, for the test files that ask express or hono
 * questions but do not test how an index is made: each index is made once per source in a shared
 * folder (shared-folder.ts) and copied into the asking test's own LORE_HOME, so that a dozen files
 * do not each pay seconds of CPU for the same first index (or the minute of a whole exported one).
 */
import { Database } from "bun:sqlite";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { indexPath } from "../../src/index/index-file.ts";
import { EXPRESS_BUNDLE, HONO_BUNDLE, cloneExpress, cloneHono } from "./express.ts";
import { runGit, tempDir } from "./git-repo.ts";
import { loreCommand } from "./lore-argv.ts";
import { sharedFolder, sourceKey } from "./shared-folder.ts";

const MAKE_TIMEOUT_MS = 300_000;
const CORPORA = { express: { bundle: EXPRESS_BUNDLE, clone: cloneExpress }, hono: { bundle: HONO_BUNDLE, clone: cloneHono } };
type Corpus = keyof typeof CORPORA;

/** The sources, the bundle (its path, size and time) and what is made of it. */
function keyOf(corpus: Corpus, what: string): string {
  const s = statSync(CORPORA[corpus].bundle);
  return createHash("sha256").update(`${sourceKey()}\0${CORPORA[corpus].bundle}\0${s.size}\0${s.mtimeMs}\0${what}`).digest("hex").slice(0, 16);
}

/** Runs the lore CLI without a daemon in `cwd` with its own `home`; throws with its stderr when it fails. */
function lore(cwd: string, home: string, args: string[]): void {
  const cmd = loreCommand(args);
  const r = spawnSync(cmd.command, cmd.args, { cwd, env: { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1", NO_COLOR: "1" }, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`lore ${args.join(" ")} failed in ${cwd}: ${r.stderr}`);
}

/** The one index file under `home` (the process that wrote it has ended, so no WAL is left beside it). */
function onlyIndex(home: string): string {
  const repos = readdirSync(join(home, "repos"));
  if (repos.length !== 1) throw new Error(`expected one index under ${home}, found ${repos.length}`);
  const file = join(home, "repos", repos[0]!, "index.db");
  if (existsSync(`${file}-wal`)) throw new Error(`${file} has a write-ahead log left: it cannot be copied alone`);
  return file;
}

/** A clone of the corpus and the index its first question made (history, messages, commit graph): what a first `lore log` leaves. */
function preparedClone(corpus: Corpus): Promise<string> {
  return sharedFolder(`lore-corpus-${corpus}-`, keyOf(corpus, "first index"), (base) => {
    const repo = CORPORA[corpus].clone(join(base, "repo"));
    const home = join(base, "home");
    lore(repo, home, ["log", "-n", "1", "--json"]);
    copyFileSync(onlyIndex(home), join(base, "index.db"));
    rmSync(home, { recursive: true, force: true });
  }, MAKE_TIMEOUT_MS);
}

/**
 * Clones the corpus into `dir` (a copy of the shared clone: the same refs, remote and files as
 * `git clone` of the bundle) and puts the prepared index where lore looks for it under `home`
 * (default: this process's LORE_HOME, which the test must have set to its own folder).
 */
export async function indexedClone(corpus: Corpus, dir = join(tempDir(), corpus), home = process.env.LORE_HOME): Promise<string> {
  if (!home) throw new Error("indexedClone needs the test's own LORE_HOME (isolateHome() first)");
  const base = await preparedClone(corpus);
  cpSync(join(base, "repo"), dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  // The copy's files have new inodes and ctimes: refresh git's index once so the clone is as clean as a fresh one.
  runGit(dir, ["update-index", "-q", "--refresh"]);
  const saved = process.env.LORE_HOME;
  process.env.LORE_HOME = home;
  try {
    const commonDir = realpathSync(join(dir, ".git"));
    const to = indexPath(commonDir);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(base, "index.db"), to);
    // The index names the repository it belongs to (its common git dir): this copy's, as if lore had made it here.
    const db = new Database(to);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'repoRoot'").run(commonDir);
    db.close();
  } finally {
    process.env.LORE_HOME = saved;
  }
  return dir;
}

/**
 * express's whole index (every part `lore index export` builds) exported at the commit `back`
 * commits below HEAD, made once and shared: the file (read it, never write it) and its commit.
 */
export async function exportedExpress(back: number): Promise<{ file: string; head: string }> {
  const base = await sharedFolder("lore-corpus-export-", keyOf("express", `export ${back}`), (base) => {
    const a = cloneExpress(join(base, "a"));
    runGit(a, ["reset", "-q", "--hard", `HEAD~${back}`]);
    lore(a, join(base, "home"), ["index", "export", join(base, "express.lore")]);
    writeFileSync(join(base, "head"), runGit(a, ["rev-parse", "HEAD"]).trim());
    for (const gone of [a, join(base, "home")]) rmSync(gone, { recursive: true, force: true });
  }, MAKE_TIMEOUT_MS);
  return { file: join(base, "express.lore"), head: readFileSync(join(base, "head"), "utf8") };
}
