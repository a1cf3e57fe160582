/**
 * The repositories the daemon keeps open — each one's index, watcher and warm-up — and
 * questions answered against them from the last consistent state of the index.
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
import { watchRepo } from "./watcher.ts";

interface OpenRepo {
  repo: Repo;
  index: RepoIndex;
  warmup: Warmup;
  unwatch?: () => void;
  lastUsed: number;
  /** .mailmap and shallow as of the last refresh: they change answers without moving HEAD. */
  stamps: string;
  updating?: Promise<void>;
  /** Questions reading the index now: an update waits for them, so none sees half of one. */
  readers: number;
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

/** A repository (a submodule, a new checkout) between `dir` and the root we remembered makes the memory wrong. */
function nestedBetween(dir: string, root: string): boolean {
  for (let d = dir; d !== root && d.length > root.length; d = dirname(d)) if (existsSync(join(d, ".git"))) return true;
  return false;
}

/** Resolves once no question reads the index (or after DRAIN_MS: a long question must not hold back every update). */
async function drain(open: OpenRepo): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (open.readers > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
}

export class Repos {
  private readonly byRoot = new Map<string, OpenRepo>();
  private readonly byDir = new Map<string, Repo>();

  constructor(
    private readonly daemon: () => NonNullable<QueryContext["daemon"]>,
    private readonly blameWorkers: number,
  ) {}

  get size(): number {
    return this.byRoot.size;
  }

  /** The answer as the JSON text of the reply: made once, and kept as is when it may be asked again. */
  async answer(name: string, raw: Record<string, unknown>, opts: { remember?: boolean } = {}): Promise<JsonText> {
    // Background work (the warm-up of every repository) waits while any question is answered.
    questionBegins();
    try {
      return await this.answerNow(name, raw, opts);
    } finally {
      questionEnds();
    }
  }

  private async answerNow(name: string, raw: Record<string, unknown>, opts: { remember?: boolean }): Promise<JsonText> {
    const def = findQuery(name)!;
    const input = validateInput(def, raw);
    if (typeof input.repo !== "string" || !isAbsolute(input.repo))
      throw new LoreError("BAD_ARGUMENT", "The daemon needs repo: the absolute path of a folder inside the repository.");
    const open = await this.open(input.repo);
    open.lastUsed = Date.now();
    // Only HEAD's history is being indexed: a question about another commit waits for it.
    if (def.answersFromPrefix && input.until === undefined && this.noHistoryYet(open)) {
      const found = await this.fromPrefix(open, def, input);
      if (found) return new JsonText(JSON.stringify(found.answer));
    }
    const early = def.needsIndex === false || (def.needsHistory === false && this.noHistoryYet(open));
    if (early) {
      // Questions about the index itself, or ones git alone answers, go ahead while the update they started runs.
      if (!open.updating && !this.isFresh(open)) this.update(open).catch(() => {});
    } else await this.ready(open);
    // Only an answer from an index at HEAD may be remembered, and found.
    // remember: false for bulk asks (the report's whole histories) that would push everyone's answers out.
    const key = early || opts.remember === false ? undefined : AnswerCache.keyOf(def, input);
    if (key !== undefined) {
      const cached = open.answers.get(key);
      if (cached !== undefined) return new JsonText(cached);
    }
    const generation = open.answers.generation;
    const text = JSON.stringify(await this.run(open, def, input)) ?? "null";
    if (key !== undefined) open.answers.set(key, generation, text);
    return new JsonText(text);
  }

  private async run(open: OpenRepo, def: AnyQuery, input: Record<string, unknown>): Promise<unknown> {
    const ctx: QueryContext = { index: open.index, clock: () => new Date(), blameWorkers: this.blameWorkers, daemon: this.daemon() };
    open.readers++;
    try {
      return await def.run(ctx, input as never);
    } finally {
      open.readers--;
    }
  }

  /**
   * While a first index is built: the answer as soon as the newest commits indexed so far give
   * all of it (the question says when: HistoryNotYet), tried again after each batch. Undefined
   * once the index is done or stopped: the question is then answered the usual way.
   */
  private async fromPrefix(open: OpenRepo, def: AnyQuery, input: Record<string, unknown>): Promise<{ answer: unknown } | undefined> {
    if (!open.updating) this.update(open).catch(() => {});
    for (;;) {
      const updating = open.updating;
      if (!updating || !this.noHistoryYet(open)) return undefined;
      const grew = open.index.historyGrowth();
      try {
        return { answer: await this.run(open, def, input) };
      } catch {
        // Not whole yet (HistoryNotYet), or a path the index has not reached: look again after the next batch,
        // and any real error again from the whole index.
      }
      await Promise.race([grew, updating.catch(() => {})]);
    }
  }

  /** The repository containing `dir`, remembered so a warm question starts no git process. */
  private async discover(dir: string): Promise<Repo> {
    const known = this.byDir.get(dir);
    if (known && existsSync(known.gitDir) && existsSync(dir) && !nestedBetween(dir, known.root)) return known;
    const repo = await discoverRepo(dir);
    if (this.byDir.size > 1000) this.byDir.clear();
    this.byDir.set(dir, repo);
    return repo;
  }

  private async open(dir: string): Promise<OpenRepo> {
    const repo = await this.discover(dir);
    let open = this.byRoot.get(repo.root);
    if (!open) {
      const index = RepoIndex.open(repo);
      index.log = log;
      open = { repo, index, warmup: new Warmup(index, this.blameWorkers, log), lastUsed: Date.now(), stamps: "", readers: 0, answers: new AnswerCache() };
      this.byRoot.set(repo.root, open);
      log(`opened ${repo.root}`);
    }
    if (!open.unwatch) {
      const o = open;
      if (o.warmup.stopped) o.warmup = new Warmup(o.index, this.blameWorkers, log);
      o.unwatch = watchRepo(repo, () => this.onChange(o), (err) => log(`watching ${repo.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return open;
  }

  /**
   * True when the index is at the HEAD git's files name now, and nobody else wrote it since
   * (a --no-daemon lore may have started it over): then a question needs no git at all.
   */
  private isFresh(open: OpenRepo): boolean {
    if (open.index.store.syncWithOthers()) return false;
    const head = readHeadCommit(open.repo);
    if (!head) return false;
    const { store } = open.index;
    const indexed = store.meta("indexedHead");
    return head === indexed && store.meta("treeHead") === indexed && fileStamps(open.repo) === open.stamps;
  }

  /** True while a repository's history has never been indexed, and it has commits to index. */
  private noHistoryYet(open: OpenRepo): boolean {
    return open.index.indexedHead === undefined && !!readHeadCommit(open.repo);
  }

  private async ready(open: OpenRepo): Promise<void> {
    if (this.isFresh(open)) return;
    if (open.updating) {
      await open.updating.catch(() => {});
      if (this.isFresh(open)) return;
    }
    await this.update(open);
  }

  /** Brings the index to HEAD (RepoIndex runs updates one at a time, each asking git for HEAD), then restarts the warm-up. */
  private update(open: OpenRepo): Promise<void> {
    const stamps = fileStamps(open.repo);
    const before = open.index.indexedHead;
    const started = Date.now();
    const p = drain(open)
      .then(() => open.index.refresh())
      .finally(() => open.answers.clear())
      .then((head) => {
        open.stamps = stamps;
        if (head !== before) log(`${open.repo.root}: indexed ${before ? before.slice(0, 12) + ".." : ""}${head.slice(0, 12)} in ${Date.now() - started} ms`);
        open.warmup.kick();
      });
    open.updating = p;
    p.catch(() => {}).finally(() => {
      if (open.updating === p) open.updating = undefined;
    });
    return p;
  }

  private onChange(open: OpenRepo): void {
    if (!this.byRoot.has(open.repo.root)) return;
    this.update(open).catch((err) => {
      if (!(err instanceof LoreError && err.code === "NO_COMMITS")) log(`updating ${open.repo.root}: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /** Unwatches and closes repositories nobody asked about lately. */
  sweep(now = Date.now()): void {
    for (const [root, open] of this.byRoot) {
      if (now - open.lastUsed < REPO_IDLE_MS) continue;
      open.unwatch?.();
      open.unwatch = undefined;
      open.warmup.stop();
      if (open.index.busy || open.warmup.active || open.updating) continue;
      open.index.close();
      this.byRoot.delete(root);
      log(`closed ${root} (idle)`);
    }
  }

  closeAll(): void {
    for (const open of this.byRoot.values()) {
      open.unwatch?.();
      open.warmup.stop();
      try {
        open.index.close();
      } catch {}
    }
    this.byRoot.clear();
  }
}
