/**
 * lore's memory of a work tree: snapshots in a git object store of lore's own under
 * $LORE_HOME, borrowing the repository's objects as alternates. The repository, its .git,
 * its index and its refs are never written: git runs with a private index file and lore's
 * object folder (GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { LoreError } from "../errors.ts";
import { badDate, dateTime, readDate } from "../queries/date-text.ts";
import { workTreeStateDir } from "../index/index-file.ts";
import type { Repo } from "../git/repo.ts";
import { noFilterArgs } from "../git/no-filters.ts";
import { git, gitText } from "../git/run.ts";
import { tryLock, type Lock } from "../store/file-lock.ts";

export interface Snapshot {
  /** The snapshot's commit in lore's store (full sha). */
  id: string;
  tree: string;
  /** ISO-8601 UTC. */
  time: string;
  message?: string;
  /** Files that differ from the snapshot before (from HEAD for the first). */
  files: number;
  /** Their paths, the first MAX_CHANGED of them. */
  changed: string[];
  /** Taken by `changes` to compare the work tree with, not asked for. */
  byChanges?: true;
}

const MAX_CHANGED = 200;
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** Pruning: snapshots older than this many hours, or beyond this many, are dropped (env overrides). */
export function pruneLimits(env: Record<string, string | undefined> = process.env): { maxAgeHours: number; maxCount: number } {
  const hours = Number(env.LORE_SNAPSHOT_MAX_AGE_HOURS);
  const count = Number(env.LORE_SNAPSHOT_MAX_COUNT);
  return { maxAgeHours: hours > 0 ? hours : 72, maxCount: Number.isInteger(count) && count > 0 ? count : 1000 };
}

export function isoNow(d = new Date()): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export class SnapshotStore {
  /** A bare repository of lore's own: its objects, refs of the kept snapshots for pruning. */
  readonly dir: string;
  readonly listFile: string;
  readonly indexFile: string;

  constructor(readonly repo: Repo) {
    this.dir = join(workTreeStateDir(repo.root), "snapshots.git");
    this.listFile = join(workTreeStateDir(repo.root), "snapshots.json");
    this.indexFile = join(this.dir, "lore-index");
  }

  /** The environment every git command about snapshots runs with. */
  env(): Record<string, string> {
    return {
      GIT_INDEX_FILE: this.indexFile,
      GIT_OBJECT_DIRECTORY: join(this.dir, "objects"),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(this.repo.commonDir, "objects"),
      GIT_LITERAL_PATHSPECS: "1",
      GIT_NO_LAZY_FETCH: "1",
    };
  }

  list(): Snapshot[] {
    try {
      const parsed = JSON.parse(readFileSync(this.listFile, "utf8"));
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }

  private save(list: Snapshot[]): void {
    const tmp = `${this.listFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(list), { mode: 0o600 });
    renameSync(tmp, this.listFile);
  }

  /** The store's folder, made once: `git init --bare` and the repository's objects as alternates. */
  private async ensure(): Promise<void> {
    if (existsSync(join(this.dir, "objects", "info", "alternates"))) return;
    mkdirSync(dirname(this.dir), { recursive: true, mode: 0o700 });
    await git(["init", "-q", "--bare", "--template=", this.dir], { cwd: dirname(this.dir) });
    writeFileSync(join(this.dir, "objects", "info", "alternates"), join(this.repo.commonDir, "objects") + "\n");
  }

  /** Holds the store's lock while `fn` runs; waits up to `waitMs` for another process to let go. */
  async locked<T>(waitMs: number, fn: () => Promise<T>): Promise<T> {
    await this.ensure();
    const deadline = Date.now() + waitMs;
    let lock: Lock | null;
    while (!(lock = tryLock(join(this.dir, "lore.lock")))) {
      if (Date.now() >= deadline) throw new LoreError("INDEX_BUSY", "Another lore process is taking a snapshot of this work tree; ask again in a moment.");
      await new Promise((r) => setTimeout(r, 20));
    }
    try {
      return await fn();
    } finally {
      lock.release();
    }
  }

  /**
   * The tree of the work tree as it is now (tracked and untracked, not ignored), written into
   * lore's store. The private index starts as a copy of the repository's, so git hashes only
   * the files whose timestamps changed.
   */
  async treeOfNow(): Promise<string> {
    const repoIndex = join(this.repo.gitDir, "index");
    if (!existsSync(this.indexFile) && existsSync(repoIndex)) copyFileSync(repoIndex, this.indexFile);
    const opts = { cwd: this.repo.root, env: this.env() };
    // Filters off: a snapshot keeps the bytes in the work tree, and git-lfs's clean would write into .git.
    const off = await noFilterArgs(this.repo.root, this.repo.commonDir);
    const add = [...off, "add", "-A", "--ignore-errors", "--", "."];
    try {
      await git(add, opts);
    } catch (err) {
      // An index git cannot read as ours (split index, another version): start an empty one.
      if (!existsSync(this.indexFile) || statSync(this.indexFile).size === 0) throw err;
      writeFileSync(this.indexFile, "");
      await git(add, opts);
    }
    // write-tree too: racily clean entries make git compare contents, through the filter.
    return gitText([...off, "write-tree"], opts);
  }

  /** Paths that differ between two trees (either may be null: the empty tree). */
  async changedPaths(from: string | null, to: string): Promise<string[]> {
    const out = await git(["diff-tree", "-r", "--name-only", "-z", "--no-renames", from ?? EMPTY_TREE, to], { cwd: this.repo.root, env: this.env() });
    return out.toString("utf8").split("\0").filter(Boolean);
  }

  /** HEAD's tree, or null when there are no commits yet. */
  async headTree(): Promise<string | null> {
    return gitText(["rev-parse", "--verify", "-q", "HEAD^{tree}"], { cwd: this.repo.root, env: this.env() }).catch(() => null);
  }

  /** Takes a snapshot unless nothing changed since the last one; prunes old ones. */
  async take(message: string | undefined, now: Date, waitMs = 10_000, byChanges = false): Promise<{ snapshot: Snapshot; created: boolean; pruned: number }> {
    return this.locked(waitMs, async () => {
      const list = this.list();
      const tree = await this.treeOfNow();
      const last = list[list.length - 1];
      if (last && last.tree === tree) {
        // Asked for now: the snapshot changes took of the same files is the one asked for.
        if (!byChanges && last.byChanges) {
          delete last.byChanges;
          this.save(list);
        }
        return { snapshot: last, created: false, pruned: 0 };
      }
      const changed = await this.changedPaths(last ? last.tree : await this.headTree(), tree);
      const stamp = `${Math.floor(now.getTime() / 1000)} +0000`;
      const id = await gitText(["commit-tree", tree, "-m", message || "lore snapshot"], {
        cwd: this.repo.root,
        env: { ...this.env(), GIT_AUTHOR_NAME: "lore", GIT_AUTHOR_EMAIL: "lore@localhost", GIT_COMMITTER_NAME: "lore", GIT_COMMITTER_EMAIL: "lore@localhost", GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp },
      });
      const snapshot: Snapshot = { id, tree, time: isoNow(now), ...(message ? { message } : {}), files: changed.length, changed: changed.slice(0, MAX_CHANGED), ...(byChanges ? { byChanges } : {}) };
      const kept = [...list, snapshot];
      const pruned = await this.prune(kept, now);
      return { snapshot, created: true, pruned };
    });
  }

  /** Drops snapshots past the age and count limits (the list in place), then, at most hourly, their objects. */
  private async prune(list: Snapshot[], now: Date): Promise<number> {
    const { maxAgeHours, maxCount } = pruneLimits();
    const oldest = now.getTime() - maxAgeHours * 3600_000;
    let drop = 0;
    while (drop < list.length - 1 && (list.length - drop > maxCount || Date.parse(list[drop]!.time) < oldest)) drop++;
    const kept = list.slice(drop);
    this.save(kept);
    if (drop > 0) await this.pruneObjects(kept, now).catch(() => {});
    return drop;
  }

  /** git prune in lore's store, with a ref per kept snapshot: what no kept snapshot reaches goes. */
  private async pruneObjects(kept: Snapshot[], now: Date): Promise<void> {
    const marker = join(this.dir, "lore-pruned");
    if (existsSync(marker) && now.getTime() - statSync(marker).mtimeMs < 3600_000) return;
    writeFileSync(join(this.dir, "packed-refs"), "# pack-refs with: peeled fully-peeled sorted\n" + kept.map((s) => `${s.id} refs/snapshots/${s.id}\n`).sort().join(""));
    await git(["--git-dir", this.dir, "prune", "--expire=1.hour.ago"], { cwd: this.dir, timeoutMs: 60_000 });
    writeFileSync(marker, "");
  }

  /** The snapshot an id (or a unique prefix of one) names. */
  find(id: string): Snapshot {
    const key = id.trim().toLowerCase();
    const found = /^[0-9a-f]{4,40}$/.test(key) ? this.list().filter((s) => s.id.startsWith(key)) : [];
    if (found.length === 1) return found[0]!;
    throw new LoreError("BAD_ARGUMENT", found.length > 1 ? `${id} names more than one snapshot; give more of its id.` : `lore has no snapshot ${id} of this work tree; lore snapshots lists them.`);
  }

  /** Bytes of lore's store on disk (objects and list), for status. */
  bytes(): number {
    let total = 0;
    const walk = (dir: string) => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const n of names) {
        const p = join(dir, n);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else total += st.size;
      }
    };
    walk(join(this.dir, "objects"));
    return total;
  }
}

/** `--since`: a snapshot id, or a date in a form lore reads (a duration such as 10m, 2h, 3d; yesterday; 2024-01-31). Returns a snapshot id or a time. */
export function parseSince(text: string, now: Date): { time: Date } | { id: string } {
  const t = text.trim();
  if (/^[0-9a-f]{4,40}$/i.test(t)) return { id: t };
  const read = readDate(t);
  if (read === undefined) throw badDate("--since", text, true);
  return { time: dateTime(read, now) };
}
