/**
 * Questions the daemon answers, each in its worktree from the last consistent state of the
 * repository's index (repo-table.ts keeps them open; repo-updates.ts keeps each index at HEAD).
 */
import { isAbsolute } from "node:path";
import { LoreError } from "../errors.ts";
import type { Repo } from "../git/repo.ts";
import type { QueryContext } from "../queries/context.ts";
import { validateInput, type AnyQuery } from "../queries/define.ts";
import { findQuery } from "../queries/index.ts";
import { AnswerCache } from "./answer-cache.ts";
import { JsonText } from "./rpc.ts";
import { questionBegins, questionEnds } from "../git/priority.ts";
import { askedRepo, worktreeFor } from "../queries/worktree-input.ts";
import { askedOf, Deadlines } from "../queries/deadline.ts";
import { takeAsk, type PartialWork } from "../queries/partial.ts";
import { RepoTable, type OpenRepo } from "./repo-table.ts";
import { isFresh, noHistoryYet, ready, treeStamp, update, updateOnChange } from "./repo-updates.ts";
import { answerInPages, PAGED } from "../queries/pages.ts";
import { aboutWorkTree, boundFor } from "../queries/page-bound.ts";
import { adoptStaged } from "../portable/swap.ts";
import { log } from "./lifecycle.ts";

/** How long an import's swap waits for the questions reading the index to finish. */
const SWAP_WAIT_MS = 5 * 60_000;

/** A call's question as the daemon resolved it, once: checked input, its worktree, and the input as asked there. */
interface Resolved {
  def: AnyQuery;
  given: Record<string, unknown>;
  repo: Repo;
  input: Record<string, unknown>;
}

export class Repos {
  private readonly table: RepoTable;

  constructor(
    private readonly daemon: () => NonNullable<QueryContext["daemon"]>,
    private readonly blameWorkers: number,
  ) {
    this.table = new RepoTable(blameWorkers, updateOnChange);
  }

  /** Repositories open (the worktrees of one count once). */
  get size(): number {
    return this.table.size;
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
      const plain = ask.deadlineMs === undefined && !ask.ticket;
      if (plain && ask.token === undefined && !(name in PAGED)) return await this.answerNow(asked, opts);
      const job = askedOf(asked.def, asked.given, asked.repo);
      const paged = await answerInPages(boundFor(asked.def, job, asked.repo), ask, async (widen, from) => {
        const wide = { ...asked, given: widen(asked.given), input: widen(asked.input) };
        if (plain && !from) return JSON.parse((await this.answerNow(wide, opts)).text);
        // Past its deadline a question is nobody's in particular: the pass goes on beside it.
        return this.deadlines.answer({ ...job, input: wide.given }, { ...ask, from }, (work) => this.answerNow(wide, opts, work).then((t) => JSON.parse(t.text)), end);
      }, aboutWorkTree(asked.def, asked.given));
      return new JsonText(JSON.stringify(paged));
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
    const discover = (dir: string) => this.table.discover(dir);
    const { repo, input } = await worktreeFor(def, given, await askedRepo(def, given, discover), discover);
    return { def, given, repo, input };
  }

  private async answerNow({ def, repo, input }: Resolved, opts: { remember?: boolean }, work?: PartialWork): Promise<JsonText> {
    const open = this.table.open(repo);
    while (open.shared.gate) await open.shared.gate;
    open.lastUsed = Date.now();
    const shared = open.shared;
    // Only HEAD's history is being indexed: a question about another commit waits for it.
    if (def.answersFromPrefix && input.until === undefined && open.index.isPrimary && noHistoryYet(shared)) {
      const found = await this.fromPrefix(open, def, input, work);
      if (found) return new JsonText(JSON.stringify(found.answer));
      work?.reset();
    }
    const early = def.needsIndex === false || (def.needsHistory === false && noHistoryYet(shared));
    if (early) {
      // Questions about the index itself, or ones git alone answers, go ahead while the update they started runs.
      if (!shared.updating && !isFresh(shared)) update(shared, open.index).catch(() => {});
    } else await ready(open);
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
    if (open.shared.gate) {
      // An import took the index's place while this question got ready: it reads the new one, brought to HEAD.
      while (open.shared.gate) await open.shared.gate;
      await ready(open);
    }
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
    if (!shared.updating) update(shared, open.index).catch(() => {});
    for (;;) {
      const updating = shared.updating;
      if (!updating || !noHistoryYet(shared)) return undefined;
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

  /**
   * lore index import's swap, between two answers: new questions wait at the gate, the ones reading
   * the index finish first, then the staged file's rows replace the index's and every kept answer goes.
   */
  async adopt(dir: string, file: string, head: string): Promise<{ adopted: true }> {
    const shared = this.table.open(await this.table.discover(dir)).shared;
    while (shared.gate) await shared.gate;
    let release!: () => void;
    shared.gate = new Promise<void>((r) => (release = r));
    try {
      const deadline = Date.now() + SWAP_WAIT_MS;
      while (shared.readers > 0) {
        if (Date.now() > deadline) throw new LoreError("INDEX_BUSY", "Questions kept reading this repository's index for minutes; the import changed nothing: try again.");
        await new Promise((r) => setTimeout(r, 5));
      }
      await adoptStaged(shared.index, file, head);
      for (const t of shared.trees) t.answers.clear();
      log(`${shared.index.repo.root}: imported an index at ${head.slice(0, 12)}`);
      return { adopted: true };
    } finally {
      shared.gate = undefined;
      release();
    }
  }

  /** Unwatches and closes worktrees, then repositories, nobody asked about lately. */
  sweep(now = Date.now()): void {
    this.table.sweep(now);
  }

  closeAll(): void {
    this.table.closeAll();
  }
}
