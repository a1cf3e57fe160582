/**
 * The repositories the daemon keeps open: each one's index, watcher and warm-up, opened once and
 * shared by its worktrees, and each worktree's own view and answers; closed when nobody asks.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { discoverRepo, type Repo } from "../git/repo.ts";
import { RepoIndex } from "../index/repo-index.ts";
import { AnswerCache } from "./answer-cache.ts";
import { Warmup } from "./background.ts";
import { log } from "./lifecycle.ts";
import { watchGitDir, watchRepo } from "./watcher.ts";

/** One repository (one common git dir): its index, kept at the main worktree's HEAD, watched and warmed once for all its worktrees. */
export interface OpenIndex {
  /** The view of the worktree whose HEAD the index follows: updates and the warm-up run as it. */
  index: RepoIndex;
  warmup: Warmup;
  unwatch?: () => void;
  /** .mailmap and shallow as of the last refresh: they change answers without moving HEAD. */
  stamps: string;
  updating?: Promise<void>;
  /** Questions reading the index now: an update waits for them, so none sees half of one. */
  readers: number;
  /** Set while an imported index takes this one's place: questions wait for it, so none reads across the swap. */
  gate?: Promise<void>;
  trees: Set<OpenRepo>;
  /** Set once the warm-up was started for this opening. */
  warmed?: boolean;
}

/** One worktree asked about: its view of the shared index and its own answers, never served for another worktree. */
export interface OpenRepo {
  repo: Repo;
  index: RepoIndex;
  shared: OpenIndex;
  /** Its own git dir watched (a linked worktree's HEAD moves there). */
  unwatch?: () => void;
  lastUsed: number;
  /** This worktree's HEAD and its own answer-changing files when its answers were kept: when they move, the answers go. */
  seen: string;
  answers: AnswerCache;
}

/** A repository nobody asked about for this long is unwatched and closed: its memos go with it. LORE_REPO_IDLE_MS: tests. */
export const REPO_IDLE_MS = Number(process.env.LORE_REPO_IDLE_MS) || 10 * 60_000;

/** A repository (a submodule, a new checkout) between `dir` and the root we remembered makes the memory wrong. */
function nestedBetween(dir: string, root: string): boolean {
  for (let d = dir; d !== root && d.length > root.length; d = dirname(d)) if (existsSync(join(d, ".git"))) return true;
  return false;
}

export class RepoTable {
  private readonly byRoot = new Map<string, OpenRepo>();
  private readonly byCommonDir = new Map<string, OpenIndex>();
  private readonly byDir = new Map<string, Repo>();

  constructor(
    private readonly blameWorkers: number,
    /** Called when a watched repository's HEAD or refs moved. */
    private readonly onChange: (shared: OpenIndex) => void,
  ) {}

  /** Repositories open (the worktrees of one count once). */
  get size(): number {
    return this.byCommonDir.size;
  }

  /** The work tree containing `dir`, remembered so a warm question starts no git process. */
  async discover(dir: string): Promise<Repo> {
    const known = this.byDir.get(dir);
    if (known && existsSync(known.gitDir) && existsSync(dir) && !nestedBetween(dir, known.root)) return known;
    const repo = await discoverRepo(dir);
    if (this.byDir.size > 1000) this.byDir.clear();
    this.byDir.set(dir, repo);
    return repo;
  }

  /** The worktree's view, opened (with its repository's shared index) and watched once. */
  open(repo: Repo): OpenRepo {
    let open = this.byRoot.get(repo.root);
    if (open && open.repo.gitDir !== repo.gitDir) {
      // Another worktree now lives at this root (removed and added again): the old one's answers are not its.
      this.forget(open);
      open = undefined;
    }
    const shared = this.openIndex(repo);
    if (!open) {
      const index = RepoIndex.open(repo);
      index.log = log;
      open = { repo, index, shared, lastUsed: Date.now(), seen: "", answers: new AnswerCache() };
      this.byRoot.set(repo.root, open);
      shared.trees.add(open);
      if (!index.isPrimary) log(`opened the worktree ${repo.root}`);
    }
    if (!open.unwatch && repo.gitDir !== shared.index.repo.gitDir) {
      // A linked worktree's HEAD lives in its own git dir.
      const o = open;
      o.unwatch = watchGitDir(repo, () => this.changed(shared), (err) => log(`watching ${repo.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return open;
  }

  /** The repository's index, opened and watched once for all its worktrees. */
  private openIndex(repo: Repo): OpenIndex {
    let shared = this.byCommonDir.get(repo.commonDir);
    if (!shared) {
      const index = RepoIndex.open(repo);
      // Updates and the warm-up run as the worktree whose HEAD the index follows.
      const primary = index.isPrimary ? index : RepoIndex.open(index.shared.primary);
      if (primary !== index) index.close();
      primary.log = log;
      shared = { index: primary, warmup: new Warmup(primary, this.blameWorkers, log), stamps: "", readers: 0, trees: new Set() };
      this.byCommonDir.set(repo.commonDir, shared);
      log(`opened ${primary.repo.root}${primary.repo.root === repo.root ? "" : ` (for its worktree ${repo.root})`}`);
    }
    if (!shared.unwatch) {
      const o = shared;
      if (o.warmup.stopped) {
        o.warmup = new Warmup(o.index, this.blameWorkers, log);
        o.warmed = false;
      }
      const primary = o.index.repo;
      o.unwatch = watchRepo(primary, () => this.changed(o), (err) => log(`watching ${primary.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return shared;
  }

  /** A watcher's news, for a repository still open (a closed one's last events are dropped). */
  private changed(shared: OpenIndex): void {
    if (this.byCommonDir.get(shared.index.repo.commonDir) === shared) this.onChange(shared);
  }

  /** Lets go of one worktree: its watcher, its answers, its view. */
  private forget(open: OpenRepo): void {
    open.unwatch?.();
    open.unwatch = undefined;
    open.index.close();
    open.shared.trees.delete(open);
    this.byRoot.delete(open.repo.root);
  }

  /** Unwatches and closes worktrees, then repositories, nobody asked about lately. */
  sweep(now = Date.now()): void {
    for (const open of this.byRoot.values()) {
      if (now - open.lastUsed < REPO_IDLE_MS) continue;
      this.forget(open);
      if (!open.index.isPrimary) log(`closed the worktree ${open.repo.root} (idle)`);
    }
    for (const [commonDir, shared] of this.byCommonDir) {
      if (shared.trees.size > 0) continue;
      shared.unwatch?.();
      shared.unwatch = undefined;
      shared.warmup.stop();
      if (shared.index.busy || shared.warmup.active || shared.updating || shared.readers > 0) continue;
      shared.index.close();
      this.byCommonDir.delete(commonDir);
      log(`closed ${shared.index.repo.root} (idle)`);
    }
  }

  closeAll(): void {
    for (const open of this.byRoot.values()) {
      open.unwatch?.();
      try {
        open.index.close();
      } catch {}
    }
    for (const shared of this.byCommonDir.values()) {
      shared.unwatch?.();
      shared.warmup.stop();
      try {
        shared.index.close();
      } catch {}
    }
    this.byRoot.clear();
    this.byCommonDir.clear();
  }
}
