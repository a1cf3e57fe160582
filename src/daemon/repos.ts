/**
 * The repositories the daemon keeps open — each one's index, watcher and warm-up, shared by
 * its worktrees — and questions answered in a worktree from the last consistent state of the index.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { LoreError } from "../errors.ts";
import { readHeadCommit } from "../git/head-file.ts";
import { discoverRepo, type Repo } from "../git/repo.ts";
import { IGNORE_REVS_FILE } from "../index/blame.ts";
import { RepoIndex } from "../index/repo-index.ts";
import type { QueryContext } from "../queries/context.ts";
import { validateInput, type AnyQuery } from "../queries/define.ts";
import { findQuery } from "../queries/index.ts";
import { AnswerCache } from "./answer-cache.ts";
import { JsonText } from "./rpc.ts";
import { Warmup } from "./background.ts";
import { log } from "./lifecycle.ts";
import { questionBegins, questionEnds } from "../git/priority.ts";
import { watchGitDir, watchRepo } from "./watcher.ts";
import { askedRepo, worktreeFor } from "../queries/worktree-input.ts";
import { askedOf, Deadlines } from "../queries/deadline.ts";
import { takeAsk, type PartialWork } from "../queries/partial.ts";

/** A call's question as the daemon resolved it, once: checked input, its worktree, and the input as asked there. */
interface Resolved {
  def: AnyQuery;
  given: Record<string, unknown>;
  repo: Repo;
  input: Record<string, unknown>;
}

/** One repository (one common git dir): its index, kept at the main worktree's HEAD, watched and warmed once for all its worktrees. */
interface OpenIndex {
  /** The view of the worktree whose HEAD the index follows: updates and the warm-up run as it. */
  index: RepoIndex;
  warmup: Warmup;
  unwatch?: () => void;
  /** .mailmap and shallow as of the last refresh: they change answers without moving HEAD. */
  stamps: string;
  updating?: Promise<void>;
  /** Questions reading the index now: an update waits for them, so none sees half of one. */
  readers: number;
  trees: Set<OpenRepo>;
  /** Set once the warm-up was started for this opening. */
  warmed?: boolean;
}

/** One worktree asked about: its view of the shared index and its own answers, never served for another worktree. */
interface OpenRepo {
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
/** How long an update waits for the questions in flight to finish before it writes anyway. */
const DRAIN_MS = 2000;

function stamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
}

/** What changes answers without moving HEAD: authors (.mailmap), how much history there is (shallow), what blame skips. */
function fileStamps(repo: Repo): string {
  return `${stamp(join(repo.root, ".mailmap"))}|${stamp(join(repo.commonDir, "shallow"))}|${stamp(join(repo.root, IGNORE_REVS_FILE))}`;
}

/** What a worktree's kept answers were made at: its HEAD and its own files that change answers. */
function treeStamp(repo: Repo): string {
  return `${readHeadCommit(repo)}|${fileStamps(repo)}`;
}

/** A repository (a submodule, a new checkout) between `dir` and the root we remembered makes the memory wrong. */
function nestedBetween(dir: string, root: string): boolean {
  for (let d = dir; d !== root && d.length > root.length; d = dirname(d)) if (existsSync(join(d, ".git"))) return true;
  return false;
}

/** Resolves once no question reads the index (or after DRAIN_MS: a long question must not hold back every update). */
async function drain(open: OpenIndex): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (open.readers > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
}

export class Repos {
  private readonly byRoot = new Map<string, OpenRepo>();
  private readonly byCommonDir = new Map<string, OpenIndex>();
  private readonly byDir = new Map<string, Repo>();

  constructor(
    private readonly daemon: () => NonNullable<QueryContext["daemon"]>,
    private readonly blameWorkers: number,
  ) {}

  /** Repositories open (the worktrees of one count once). */
  get size(): number {
    return this.byCommonDir.size;
  }

  /** Questions asked with a deadline, a continue token or a ticket: their jobs, kept a while after. */
  readonly deadlines = new Deadlines();

  /** The answer as the JSON text of the reply: made once, and kept as is when it may be asked again. */
  async answer(name: string, raw: Record<string, unknown>, opts: { remember?: boolean } = {}): Promise<JsonText> {
    // Background work (the warm-up of every repository) waits while any question is answered.
    questionBegins();
    let ended = false;
    const end = () => {
      if (!ended) questionEnds();
      ended = true;
    };
    try {
      const { ask, rest } = takeAsk(raw);
      const asked = await this.resolve(name, rest);
      if (ask.deadlineMs === undefined && !ask.token && !ask.ticket) return await this.answerNow(asked, opts);
      // Past its deadline a question is nobody's in particular: the pass goes on beside it.
      return new JsonText(JSON.stringify(await this.deadlines.answer(askedOf(asked.def, asked.given, asked.repo), ask, (work) => this.answerNow(asked, opts, work).then((t) => JSON.parse(t.text)), end)));
    } finally {
      end();
    }
  }

  /** The question checked, and the worktree it is about: the one its paths are in (a linked worktree inside the checkout is its own), else the one repo names. */
  private async resolve(name: string, raw: Record<string, unknown>): Promise<Resolved> {
    const def = findQuery(name)!;
    const given = validateInput(def, raw);
    if (typeof given.repo !== "string" || !isAbsolute(given.repo))
      throw new LoreError("BAD_ARGUMENT", "The daemon needs repo: the absolute path of a folder inside the repository.");
    const discover = (dir: string) => this.discover(dir);
    const { repo, input } = await worktreeFor(def, given, await askedRepo(def, given, discover), discover);
    return { def, given, repo, input };
  }

  private async answerNow({ def, repo, input }: Resolved, opts: { remember?: boolean }, work?: PartialWork): Promise<JsonText> {
    const open = this.open(repo);
    open.lastUsed = Date.now();
    const shared = open.shared;
    // Only HEAD's history is being indexed: a question about another commit waits for it.
    if (def.answersFromPrefix && input.until === undefined && open.index.isPrimary && this.noHistoryYet(shared)) {
      const found = await this.fromPrefix(open, def, input, work);
      if (found) return new JsonText(JSON.stringify(found.answer));
      work?.reset();
    }
    const early = def.needsIndex === false || (def.needsHistory === false && this.noHistoryYet(shared));
    if (early) {
      // Questions about the index itself, or ones git alone answers, go ahead while the update they started runs.
      if (!shared.updating && !this.isFresh(shared)) this.update(shared, open.index).catch(() => {});
    } else await this.ready(open);
    // Only an answer from an index at HEAD may be remembered, and found; each worktree keeps its own, made at its HEAD.
    // remember: false for bulk asks (the report's whole histories) that would push everyone's answers out.
    const key = early || opts.remember === false ? undefined : AnswerCache.keyOf(def, input);
    if (key !== undefined) {
      const seen = treeStamp(open.repo);
      if (seen !== open.seen) {
        open.answers.clear();
        open.seen = seen;
      }
      const cached = open.answers.get(key);
      if (cached !== undefined) return new JsonText(cached);
    }
    const generation = open.answers.generation;
    const text = JSON.stringify(await this.run(open, def, input, work)) ?? "null";
    if (key !== undefined) open.answers.set(key, generation, text);
    return new JsonText(text);
  }

  private async run(open: OpenRepo, def: AnyQuery, input: Record<string, unknown>, partial?: PartialWork): Promise<unknown> {
    const ctx: QueryContext = { index: open.index, clock: () => new Date(), blameWorkers: this.blameWorkers, daemon: this.daemon(), partial };
    open.shared.readers++;
    try {
      return await def.run(ctx, input as never);
    } finally {
      open.shared.readers--;
    }
  }

  /**
   * While a first index is built: the answer as soon as the newest commits indexed so far give
   * all of it (the question says when: HistoryNotYet), tried again after each batch. Undefined
   * once the index is done or stopped: the question is then answered the usual way.
   */
  private async fromPrefix(open: OpenRepo, def: AnyQuery, input: Record<string, unknown>, work?: PartialWork): Promise<{ answer: unknown } | undefined> {
    const shared = open.shared;
    if (!shared.updating) this.update(shared, open.index).catch(() => {});
    for (;;) {
      const updating = shared.updating;
      if (!updating || !this.noHistoryYet(shared)) return undefined;
      const grew = open.index.historyGrowth();
      try {
        return { answer: await this.run(open, def, input, work) };
      } catch {
        work?.reset();
        // Not whole yet (HistoryNotYet), or a path the index has not reached: look again after the next batch,
        // and any real error again from the whole index.
      }
      await Promise.race([grew, updating.catch(() => {})]);
    }
  }

  /** The work tree containing `dir`, remembered so a warm question starts no git process. */
  private async discover(dir: string): Promise<Repo> {
    const known = this.byDir.get(dir);
    if (known && existsSync(known.gitDir) && existsSync(dir) && !nestedBetween(dir, known.root)) return known;
    const repo = await discoverRepo(dir);
    if (this.byDir.size > 1000) this.byDir.clear();
    this.byDir.set(dir, repo);
    return repo;
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
      o.unwatch = watchRepo(primary, () => this.onChange(o), (err) => log(`watching ${primary.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return shared;
  }

  private open(repo: Repo): OpenRepo {
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
      o.unwatch = watchGitDir(repo, () => this.onChange(shared), (err) => log(`watching ${repo.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return open;
  }

  /**
   * True when the index is at the HEAD it follows (the main worktree's), as git's files name it
   * now, and nobody else wrote it since (a --no-daemon lore may have started it over): then a
   * question needs no git at all.
   */
  private isFresh(shared: OpenIndex): boolean {
    const { index } = shared;
    if (index.store.syncWithOthers()) return false;
    const head = readHeadCommit(index.repo);
    if (!head) return false;
    const { store } = index;
    const indexed = store.meta("indexedHead");
    return head === indexed && store.meta("treeHead") === indexed && fileStamps(index.repo) === shared.stamps;
  }

  /** True while a repository's history has never been indexed, and it has commits to index. */
  private noHistoryYet(shared: OpenIndex): boolean {
    return shared.index.indexedHead === undefined && !!readHeadCommit(shared.index.repo);
  }

  private async ready(open: OpenRepo): Promise<void> {
    const shared = open.shared;
    if (this.isFresh(shared)) return;
    if (shared.updating) {
      await shared.updating.catch(() => {});
      if (this.isFresh(shared)) return;
    }
    await this.update(shared, open.index);
  }

  /**
   * Brings the index to the HEAD it follows (RepoIndex runs updates one at a time, each asking
   * git for HEAD) through `via` (the worktree asking: it knows which HEAD to follow when the main
   * one names no commit), then restarts the warm-up. Every worktree's kept answers go.
   */
  private update(shared: OpenIndex, via: RepoIndex = shared.index): Promise<void> {
    const stamps = fileStamps(shared.index.repo);
    const before = shared.index.indexedHead;
    const started = Date.now();
    const p = drain(shared)
      .then(() => via.refresh())
      .finally(() => {
        for (const t of shared.trees) t.answers.clear();
      })
      .then((head) => {
        const restamped = shared.stamps !== stamps;
        shared.stamps = stamps;
        if (head !== before) log(`${shared.index.repo.root}: indexed ${before ? before.slice(0, 12) + ".." : ""}${head.slice(0, 12)} in ${Date.now() - started} ms`);
        // A linked worktree's commit moves no indexed head: the pass has nothing new to do.
        if (head !== before || restamped || !shared.warmed || shared.index.store.meta("indexedHead") !== before) shared.warmup.kick();
        shared.warmed = true;
      });
    shared.updating = p;
    p.catch(() => {}).finally(() => {
      if (shared.updating === p) shared.updating = undefined;
    });
    return p;
  }

  private onChange(shared: OpenIndex): void {
    if (this.byCommonDir.get(shared.index.repo.commonDir) !== shared) return;
    // Through a worktree asked about: the main one may name no commit.
    const via = shared.trees.values().next().value?.index ?? shared.index;
    this.update(shared, via).catch((err) => {
      if (!(err instanceof LoreError && err.code === "NO_COMMITS")) log(`updating ${shared.index.repo.root}: ${err instanceof Error ? err.message : String(err)}`);
    });
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
