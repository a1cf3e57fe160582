/**
 * The work the daemon does for a repository when nobody is asking: its commit-graph,
 * line churn for all history, and the blame of every file at HEAD, most-changed first.
 */
import { blame } from "../index/blame.ts";
import { blamePlan } from "./blame-plan.ts";
import { updateChurn } from "../index/churn.ts";
import { updateCodeWords } from "../index/code-words.ts";
import { lineCounts } from "../index/line-counts.ts";
import type { RepoIndex } from "../index/repo-index.ts";
import { refreshCommitGraph } from "./commit-graph.ts";
import { isPartialClone } from "../git/repo.ts";
import { inBackground, questionsAnswered } from "../git/priority.ts";
import { LoreError, toLoreError } from "../errors.ts";

/** A step that takes longer than this is logged on its own line (the pass of a big history takes hours). */
const LONG_STEP_MS = 1000;
/** How often a long blame step says how far it has got. */
const PROGRESS_EVERY_MS = 60_000;

/**
 * One repository's pass at a time, in the order they asked: passes at once share the same few
 * cores and each holds its own batches in memory (ten express clones at once peaked at 508 MiB).
 */
let passes: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const turn = passes.then(fn, fn);
  passes = turn.catch(() => undefined);
  return turn;
}

export interface WarmupLog {
  (message: string): void;
}

export class Warmup {
  private generation = 0;
  private running: Promise<void> | undefined;
  private isStopped = false;
  private toldPartial = false;

  /** `workers` git blame processes at most: one fewer than a question may use, so questions never queue behind the warm-up. */
  constructor(
    private readonly ix: RepoIndex,
    private readonly workers: number,
    private readonly log: WarmupLog,
  ) {}

  get stopped(): boolean {
    return this.isStopped;
  }

  get active(): boolean {
    return this.running !== undefined;
  }

  /** The index moved: (re)start the work from the new HEAD; blames already made stay cached. */
  kick(): void {
    if (this.isStopped) return;
    this.generation++;
    this.running ??= this.loop().finally(() => (this.running = undefined));
  }

  stop(): void {
    this.isStopped = true;
    this.generation++;
  }

  private async loop(): Promise<void> {
    let done = -1;
    while (!this.isStopped && done !== this.generation) {
      done = this.generation;
      try {
        // Questions first: git children at the lowest priority, and each step waits while questions are answered.
        await oneAtATime(() => inBackground(() => this.pass(done)));
      } catch (err) {
        // Once per pass, in words a person can act on (a full disk says so); the next commit starts a new pass.
        this.log(`warm-up of ${this.ix.repo.root} failed: ${toLoreError(err).message}`);
      }
    }
  }

  private async pass(gen: number): Promise<void> {
    // Stopped or moved on while it waited for its turn.
    if (gen !== this.generation) return;
    const t0 = Date.now();
    if (isPartialClone(this.ix.repo)) return this.partialPass(t0);
    await refreshCommitGraph(this.ix).catch((err) => this.log(`commit-graph of ${this.ix.repo.root} not written: ${err instanceof Error ? err.message : String(err)}`));
    const graphMs = Date.now() - t0;
    this.step(`commit-graph written in ${graphMs} ms`, graphMs);
    // New commits' messages into the search index (a message search would otherwise add them on its first question): quick, so first.
    this.ix.store.transaction(() => this.ix.store.search.catchUpMessages());
    // Blame first, on every core: it is what a question waits longest for when missing
    // (churn of the few commits a question shows is fetched on demand in milliseconds).
    const t1 = Date.now();
    const blame = { n: await this.blameAll(gen, t1), ms: Date.now() - t1 };
    // Stopped (the daemon is going) or cut short by a new HEAD (the next pass plans from there): say only how far it got.
    if (gen !== this.generation) this.step(`blame stopped after ${blame.n} files, in ${blame.ms} ms`, blame.ms);
    else this.step(`blame of every file: ${blame.n} files in ${blame.ms} ms`, blame.ms);
    if (this.isStopped) return;
    const t2 = Date.now();
    const churnMs = (await this.churn()) ? Date.now() - t2 : -1;
    if (churnMs >= 0) this.step(`churn filled in ${churnMs} ms`, churnMs);
    // After the line counts: the change index that narrows code search (search --code) to a few commits.
    const t3 = Date.now();
    const codeMs = (await this.codeWords()) ? Date.now() - t3 : -1;
    if (codeMs >= 0) this.log(`${this.ix.repo.root}: change index filled in ${codeMs} ms (${this.ix.store.search.codeIndexBytes() ?? "?"} bytes)`);
    this.ix.store.checkpoint();
    // One line per pass; the benchmark reads "churn filled|current, N files blamed in MS ms" (MS: the whole pass).
    if (churnMs >= 0 || blame.n > 0)
      this.log(
        `${this.ix.repo.root}: churn ${churnMs >= 0 ? "filled" : "current"}, ${blame.n} files blamed in ${Date.now() - t0} ms (commit-graph ${graphMs} ms, churn ${Math.max(0, churnMs)} ms, blame ${blame.ms} ms)`,
      );
  }

  /** Each step of a long pass on a line of its own, so a pass that has not ended yet still tells what it did. */
  private step(what: string, ms: number): void {
    if (ms >= LONG_STEP_MS) this.log(`${this.ix.repo.root}: ${what}`);
  }

  /**
   * A partial clone: churn of all history and blame of every file would read blobs the clone
   * does not have (git would download them all). Only the commit-graph, which reads commits and trees.
   */
  private async partialPass(t0: number): Promise<void> {
    await refreshCommitGraph(this.ix).catch((err) => this.log(`commit-graph of ${this.ix.repo.root} not written: ${err instanceof Error ? err.message : String(err)}`));
    this.ix.store.checkpoint();
    if (!this.toldPartial) this.log(`${this.ix.repo.root}: a partial clone: line churn and blame of every file left out (their blobs are not here, and lore downloads nothing); commit-graph in ${Date.now() - t0} ms`);
    this.toldPartial = true;
  }

  private async churn(): Promise<boolean> {
    const fp = this.ix.store.meta("mailmap");
    const filled = await updateChurn(this.ix);
    // The index started over while churn streamed (a new .mailmap): what it marked is gone.
    if (this.ix.store.meta("mailmap") !== fp) this.ix.store.setMeta("churnHead", undefined);
    return filled;
  }

  private async codeWords(): Promise<boolean> {
    const fp = this.ix.store.meta("mailmap");
    const filled = await updateCodeWords(this.ix);
    if (this.ix.store.meta("mailmap") !== fp) this.ix.store.setMeta("codeHead", undefined);
    return filled;
  }

  private async blameAll(gen: number, started: number): Promise<number> {
    const targets = blamePlan(this.ix);
    // One git cat-file for every file's line count: files one commit made are blamed from it alone.
    await lineCounts(this.ix, targets.flatMap((t) => (t.headKey ? [t.headKey.blob] : [])));
    let next = 0;
    let blamed = 0;
    let unwritable: LoreError | undefined;
    let said = Date.now();
    const worker = async () => {
      while (gen === this.generation && next < targets.length) {
        await questionsAnswered();
        if (gen !== this.generation || next >= targets.length) break;
        const t = targets[next++]!;
        try {
          await blame(this.ix, t);
          blamed++;
          if (Date.now() - said >= PROGRESS_EVERY_MS) {
            said = Date.now();
            this.log(`${this.ix.repo.root}: blamed ${blamed} of ${targets.length} files so far, in ${said - started} ms`);
          }
        } catch (err) {
          // A full disk (or an index lore cannot write) fails every file alike: stop here, say it once.
          const e = toLoreError(err);
          if (e.code === "INDEX_WRITE_FAILED" || e.code === "INDEX_CORRUPT") {
            unwritable ??= e;
            next = targets.length;
          }
          // Otherwise the file may be gone at a newer HEAD; the next pass plans from there.
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.workers, targets.length)) }, worker));
    if (unwritable) throw unwritable;
    return blamed;
  }
}
