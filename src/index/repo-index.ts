/**
 * One worktree's view of its repository's index: history, tree and churn kept at the HEAD the
 * shared index follows (the main worktree's), and this worktree's HEAD answered as any commit.
 */
import { LoreError } from "../errors.ts";
import { FULL_SHA } from "../git/head-file.ts";
import { currentHead, resolveCommit, type Repo } from "../git/repo.ts";
import { gitText, type GitOptions } from "../git/run.ts";
import { someCommit, unbornError } from "../git/unborn.ts";
import { withLock } from "../store/file-lock.ts";
import type { Store } from "../store/store.ts";
import { releaseSharedIndex, sharedIndexOf, type SharedIndex } from "./shared-index.ts";
import { churnFor, updateChurn } from "./churn.ts";
import type { IndexContext, IndexOptions, Progress } from "./context.ts";
import { fingerprintOf } from "./fingerprint.ts";
import { updateHistory } from "./history.ts";
import { lsTree, updateTree } from "./tree.ts";
import { indexOffHistory } from "./off-history.ts";
import { refsStamp, updateProvenance } from "./provenance.ts";
import { orderBelowBoundary } from "./shallow-order.ts";

export interface Scope {
  /** The table holding the scope's commits in git log order. */
  table: string;
  /** The commit the question is answered at. */
  commit: string;
  /** True when that commit is the indexed head. */
  atHead: boolean;
  /**
   * Set while the first index of this commit's history is still being built: the table holds
   * only its newest `prefix` commits (in order). A question may answer from them only when it
   * can tell they give its whole answer.
   */
  prefix?: number;
  /** True when the commit is a linked worktree's HEAD (not the indexed head): its files' blames are keyed as the head's are. */
  worktreeHead?: true;
}

const MAX_SCOPES = 8;
/** How long an update waits for another process's update of the same index. */
const UPDATE_WAIT_MS = 10 * 60_000;

/** LORE_MAX_COMMITS=N indexes only the newest N commits of a huge history (status reports the cap). */
export function defaultIndexOptions(): IndexOptions {
  const n = Number(process.env.LORE_MAX_COMMITS);
  return Number.isInteger(n) && n > 0 ? { maxCommits: n } : {};
}

export class RepoIndex implements IndexContext {
  onProgress?: (p: Progress) => void;
  log?: (message: string) => void;
  private closed = false;

  private constructor(
    readonly repo: Repo,
    readonly shared: SharedIndex,
    readonly options: IndexOptions,
  ) {}

  /** The view of `repo` (a worktree) on its repository's one index. */
  static open(repo: Repo, options: IndexOptions = defaultIndexOptions()): RepoIndex {
    return new RepoIndex(repo, sharedIndexOf(repo), options);
  }

  get store(): Store {
    return this.shared.store;
  }

  /** git runs in this worktree (HEAD, the files on disk), with lore's commit-graph once there is one. */
  get git(): GitOptions {
    const env = this.shared.gitEnv;
    return env ? { cwd: this.repo.root, env } : { cwd: this.repo.root };
  }

  /** True when this worktree is the one whose HEAD the stored history and tree follow. */
  get isPrimary(): boolean {
    return this.repo.gitDir === this.shared.primary.gitDir;
  }

  /** Runs index work one step at a time: two updates never interleave. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const shared = this.shared;
    shared.running++;
    const run = shared.chain.then(fn, fn).finally(() => {
      shared.running--;
      this.onHistoryBatch();
    });
    shared.chain = run.catch(() => {});
    return run;
  }

  /** Resolves when the next batch of a first history index lands, or the update running now ends. */
  historyGrowth(): Promise<void> {
    return new Promise((resolve) => this.shared.growthWaiters.push(resolve));
  }

  onHistoryBatch(): void {
    const waiters = this.shared.growthWaiters;
    this.shared.growthWaiters = [];
    for (const wake of waiters) wake();
  }

  /** True while the index is being updated. */
  get busy(): boolean {
    return this.shared.running > 0;
  }

  /**
   * What else changes every answer without moving HEAD: the mailmap (authors), the shallow
   * boundary and the commit cap (how much history there is). When it changes, the index starts over.
   * A whole history (an index imported from a full clone) reaches below any boundary: the clone's depth is not part of it.
   */
  fingerprint(): string {
    return fingerprintOf(this.shared.primary.root, this.repo.commonDir, this.store.meta("historyWhole") === "1", this.options);
  }

  /**
   * The index as the primary worktree runs it: history and tree follow that HEAD, with its
   * .mailmap, so that every worktree's update brings the one index to the same place (none fights another).
   */
  private primaryContext(): IndexContext {
    const primary = this.shared.primary;
    const env = this.shared.gitEnv;
    return {
      repo: primary,
      store: this.store,
      git: env ? { cwd: primary.root, env } : { cwd: primary.root },
      options: this.options,
      onProgress: this.onProgress,
      log: this.log,
      onHistoryBatch: () => this.onHistoryBatch(),
    };
  }

  /**
   * Brings history and tree to the HEAD the index follows (the main worktree's; this one's when
   * that names no commit; else the one it followed, or the newest branch). Returns it, or throws
   * NO_COMMITS when the repository has no commits at all.
   * Another lore process may update the same index file (a --no-daemon call beside the daemon):
   * updates take turns under a lock file, and the second one finds the work done.
   */
  refresh(): Promise<string> {
    return this.serial(async () => {
      this.store.syncWithOthers();
      const own = await currentHead(this.repo);
      let head = this.isPrimary ? own : ((await currentHead(this.shared.primary).catch(() => null)) ?? own);
      // An unborn branch (git checkout --orphan) names no commit: the index keeps what it followed, or
      // follows the newest branch, so that a question as of a commit that exists (--until) is answered.
      if (!head) head = this.indexedHead ?? (await someCommit(this.repo))?.sha ?? null;
      if (!head) throw await unbornError(this.repo);
      const fp = this.fingerprint();
      if (this.isCurrent(head, fp)) return head;
      const done = await withLock(`${this.store.path}.update-lock`, UPDATE_WAIT_MS, async () => {
        this.store.syncWithOthers();
        await this.update(head, fp);
        return head;
      });
      if (done === null) throw new LoreError("INDEX_BUSY", "Another lore process has been updating this repository's index for minutes; try again when it is done (lore status shows it).");
      return done;
    });
  }

  /** Runs `fn` in the turn of index work, holding the update lock other lore processes take: it never interleaves with an update. */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.serial(async () => {
      const done = await withLock(`${this.store.path}.update-lock`, UPDATE_WAIT_MS, async () => ({ value: await fn() }));
      if (done === null) throw new LoreError("INDEX_BUSY", "Another lore process has been updating this repository's index for minutes; try again when it is done (lore status shows it).");
      return done.value;
    });
  }

  /** True when history, tree and fingerprint are all at `head`: nothing to write. */
  private isCurrent(head: string, fp: string): boolean {
    const { store } = this;
    return store.meta("mailmap") === fp && store.meta("indexedHead") === head && store.meta("treeHead") === head && store.meta("refsStamp") === refsStamp(this.shared.primary);
  }

  private async update(head: string, fp: string): Promise<void> {
    if (this.store.meta("mailmap") !== fp) {
      if (this.store.meta("mailmap") !== undefined) this.store.clear();
      this.shared.scopes.clear();
      // Read again: clearing forgets whether the history was whole.
      this.store.setMeta("mailmap", this.fingerprint());
    }
    const ctx = this.primaryContext();
    const changed = await updateHistory(ctx, head);
    await updateTree(ctx, head);
    await updateProvenance(ctx, refsStamp(this.shared.primary));
    if (changed) {
      this.store.setMeta("lastIndexedAt", new Date().toISOString());
      // The log of a first index is as big as its biggest batch: its disk is given back now.
      this.store.checkpoint();
    }
  }

  /** Fills line churn for all indexed history (long: run in the background). */
  indexChurn(): Promise<boolean> {
    return this.serial(() => updateChurn(this.primaryContext()));
  }

  /** Makes sure the given commits have line churn, asking git for the ones that lack it. */
  async ensureChurn(shas: string[]): Promise<void> {
    const missing = shas.filter((s) => this.store.history.lacksChurn(s));
    if (missing.length) await churnFor(this, missing);
  }

  /** The newest commit reachable from the indexed head (`head`, when the caller knows it) that changed `path`. */
  lastTouch(path: string, head = this.indexedHead): string | undefined {
    const shared = this.shared;
    if (head !== shared.touchHead) {
      shared.touches.clear();
      shared.touchHead = head;
    }
    if (shared.touches.has(path)) return shared.touches.get(path);
    const pid = this.store.history.pathId(path);
    const sha = pid === undefined ? undefined : this.store.history.lastTouch("reach", pid);
    shared.touches.set(path, sha);
    return sha;
  }

  get indexedHead(): string | undefined {
    return this.store.meta("indexedHead");
  }

  /** The history a question at `until` sees (default: this worktree's HEAD). Call after refresh(). */
  async scope(until?: string): Promise<Scope> {
    // Another process wrote (an import replaces every row): scopes made of the old commit ids go.
    if (this.store.syncWithOthers()) this.forgetScopes();
    const head = this.indexedHead;
    // HEAD on an unborn branch names no commit (the index follows another): said so, never answered as of that other one.
    const own = until === undefined || until === "HEAD" ? await currentHead(this.repo) : undefined;
    if (own === null) throw await unbornError(this.repo);
    // Another worktree's HEAD is one more commit the index answers as of.
    const ownHead = until === undefined && head !== undefined && !this.isPrimary;
    if (ownHead) until = own!;
    if (head === undefined) {
      // No history indexed yet (the daemon answers some questions during a first index): the
      // commit from git, and the newest commits of its history indexed so far, when it is the one being indexed.
      const commit = await resolveCommit(this.repo, until ?? "HEAD");
      const indexing = this.store.meta("indexingHead") === commit && this.store.meta("mailmap") === this.fingerprint();
      const prefix = indexing ? this.store.history.reachBounds().count : 0;
      return { table: "reach", commit, atHead: false, prefix };
    }
    // A full id the index holds is a commit: no git needed to say so.
    // So is this worktree's HEAD as its files name it (git is asked when they cannot tell).
    const known = until !== undefined && FULL_SHA.test(until) && (ownHead || this.store.history.commitId(until) !== undefined);
    const commit = until ? (known ? until : await resolveCommit(this.repo, until)) : head;
    // The stored tree is written just after the history: until it has caught up, the head is
    // answered like any other commit (its tree from git), never from a tree of another head.
    if (commit === head && this.store.meta("treeHead") === head) return { table: "reach", commit, atHead: true };
    const scopes = this.shared.scopes;
    let table = scopes.get(commit);
    if (!table) {
      if (this.store.history.commitId(commit) === undefined) {
        // A commit off the indexed history (another branch): index what it adds.
        // As the index is written: the primary worktree's .mailmap names the authors.
        await indexOffHistory(this.primaryContext(), commit, head);
      }
      const max = this.options.maxCommits;
      const shas = orderBelowBoundary(this, commit) ?? (await gitText(["rev-list", ...(max ? ["-n", String(max)] : []), commit, "--"], this.git)).split("\n").filter(Boolean);
      table = this.store.history.createScope(`scope_${commit.slice(0, 16)}`, shas);
      // A worktree's HEAD is asked about again and again: its whole tree once, each file's entry from it after.
      if (ownHead) await lsTree(this, commit);
      scopes.set(commit, table);
      if (scopes.size > MAX_SCOPES) {
        const [oldest, name] = scopes.entries().next().value!;
        scopes.delete(oldest);
        this.store.history.dropScope(name);
      }
    }
    return ownHead ? { table, commit, atHead: false, worktreeHead: true } : { table, commit, atHead: false };
  }

  /** Drops the time-travel scopes and remembered last touches (their commit ids are gone once the index is replaced). */
  forgetScopes(): void {
    for (const name of this.shared.scopes.values()) this.store.history.dropScope(name);
    this.shared.scopes.clear();
    this.shared.touches.clear();
    this.shared.touchHead = undefined;
  }

  /** Lets go of the shared index; the last worktree view open on it closes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    releaseSharedIndex(this.shared);
  }
}
