/**
 * Answers within a deadline: a question runs as a job that outlives the call; at the deadline the
 * caller gets what was found so far (partial, how far it got, a continue token) and the job goes on
 * at the background's priority, kept a while so the next ask, or the continue, is fast.
 */
import { readHeadCommit } from "../git/head-file.ts";
import { inLane, Lane } from "../git/priority.ts";
import type { Repo } from "../git/repo.ts";
import type { AnyQuery } from "./define.ts";
import { diskStamp } from "./disk-stamp.ts";
import { PartialWork, progressMessage, type Ask } from "./partial.ts";
import { offsetOf } from "./pages.ts";

/** How long a finished job's answer is kept for its continue (then any continue redoes the work). LORE_KEEP_MS: tests. */
const KEEP_MS = () => Number(process.env.LORE_KEEP_MS) || 10 * 60_000;
/** Finished answers kept at most (the oldest go first). */
const MAX_KEPT = 64;

interface Job {
  work: PartialWork;
  lane: Lane;
  promise: Promise<unknown>;
  answer?: unknown;
  finishedAt?: number;
  name: string;
}

/** Which question a call asks, as the daemon (or answer() in this process) resolved it. */
export interface Asked {
  root: string;
  name: string;
  /** The checked input (no deadline, continue or ticket). */
  input: Record<string, unknown>;
  /** The full id of HEAD now. */
  head: string;
  /** For a question about the file on disk: the file's stamp now (an edit is a new state, as a commit is). */
  disk?: string;
}

/** The question `given` asks in `repo` as a deadline's job knows it: HEAD now (each worktree is a HEAD of its own), and the file on disk's stamp when the question reads it. */
export function askedOf(def: AnyQuery, given: Record<string, unknown>, repo: Repo): Asked {
  return { root: repo.root, name: def.name, input: given, head: readHeadCommit(repo) ?? "0".repeat(40), ...(def.readsDisk?.(given) ? { disk: diskStamp(given) } : {}) };
}

export class Deadlines {
  private readonly jobs = new Map<string, Job>();
  private readonly tickets = new Map<string, Job>();

  /** Jobs running now, and finished ones kept for a continue. */
  get counts(): { running: number; kept: number } {
    this.sweep();
    let running = 0;
    for (const j of this.jobs.values()) if (j.finishedAt === undefined) running++;
    return { running, kept: this.jobs.size - running };
  }

  /** How far the call named `ticket` got, for a person or an agent waiting on it; null when it is not running. */
  progress(ticket: string): { message: string; done?: number; of?: number } | null {
    const job = this.tickets.get(ticket);
    if (!job || job.finishedAt !== undefined) return null;
    const p = job.work.progress;
    const done = p ? ("commits" in p ? p.commits : "found" in p ? p.found : "files" in p ? p.files : p.lines) : undefined;
    return { message: progressMessage(p, job.name), done, of: p && "of" in p ? p.of : undefined };
  }

  /**
   * The answer to `asked` within `ask.deadlineMs`: the whole one (from the continue token's place on),
   * or what was found so far. `run` answers the question, filling the work it is given;
   * `onDeadline` is called when the deadline passes with the work still running (it may stop it).
   */
  async answer(asked: Asked, ask: Ask, run: (work: PartialWork) => Promise<unknown>, onDeadline: (lane: Lane) => void): Promise<unknown> {
    this.sweep();
    // A continue's token was opened against this question as asked now (pages.ts): it never mixes two states.
    const resumed = ask.from !== undefined;
    const key = `${asked.root}\0${asked.name}\0${JSON.stringify(asked.input)}\0${asked.head}\0${asked.disk ?? ""}`;
    // A finished job serves only its continues: a fresh ask goes the usual way (the answer cache knows what the work tree changed).
    const kept = this.jobs.get(key);
    const job = kept && (kept.finishedAt === undefined || resumed) ? kept : this.start(key, asked.name, run);
    if (ask.ticket) this.tickets.set(ask.ticket, job);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = Symbol("late");
      const first = await Promise.race([
        job.promise,
        ...(ask.deadlineMs === undefined ? [] : [new Promise<typeof late>((r) => (timer = setTimeout(() => r(late), Math.max(0, ask.deadlineMs! - (Date.now() - ask.startedAt)))))]),
      ]);
      // The whole answer: pages.ts gives the page the token asked for.
      if (first !== late) return first;
      job.lane.toBackground();
      onDeadline(job.lane);
      const { work } = job;
      const from = offsetOf(asked.name, work.listKey, ask.from);
      const list = work.listKey === undefined ? {} : { [work.listKey]: work.items.slice(from) };
      // pages.ts adds the continue token: the items after these.
      return { ...(work.head ?? { repo: asked.root }), ...list, ...(from > 0 ? { after: from } : {}), partial: true, ...(work.progress ? { progress: work.progress } : {}) };
    } finally {
      clearTimeout(timer);
      if (ask.ticket) this.tickets.delete(ask.ticket);
    }
  }

  private start(key: string, name: string, run: (work: PartialWork) => Promise<unknown>): Job {
    const work = new PartialWork();
    const lane = new Lane();
    const job: Job = { work, lane, name, promise: inLane(lane, () => run(work)) };
    this.jobs.set(key, job);
    job.promise.then(
      (answer) => {
        job.answer = answer;
        job.finishedAt = Date.now();
      },
      // A failed job is not kept: the next ask tries again (and gets the error itself if it stays).
      () => {
        if (this.jobs.get(key) === job) this.jobs.delete(key);
      },
    );
    return job;
  }

  /** Forgets finished answers past their time, and the oldest beyond MAX_KEPT. */
  sweep(now = Date.now()): void {
    const finished = [...this.jobs].filter(([, j]) => j.finishedAt !== undefined);
    const keep = KEEP_MS();
    for (const [i, [key, j]] of finished.entries()) if (now - j.finishedAt! > keep || finished.length - i > MAX_KEPT) this.jobs.delete(key);
  }

  clear(): void {
    this.jobs.clear();
    this.tickets.clear();
  }
}
