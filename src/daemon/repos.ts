/**
 * The repositories the daemon keeps open — each one's index, watcher and warm-up — and
 * questions answered against them from the last consistent state of the index.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { LoreError } from "../errors.ts";
import { readHeadCommit } from "../git/head-file.ts";
import { discoverRepo, type Repo } from "../git/repo.ts";
import { RepoIndex } from "../index/repo-index.ts";
import type { QueryContext } from "../queries/context.ts";
import { validateInput } from "../queries/define.ts";
import { findQuery } from "../queries/index.ts";
import { Warmup } from "./background.ts";
import { log } from "./lifecycle.ts";
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
}

/** A repository nobody asked about for this long is unwatched and closed. */
export const REPO_IDLE_MS = 10 * 60_000;

function stamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
}

function fileStamps(repo: Repo): string {
  return `${stamp(join(repo.root, ".mailmap"))}|${stamp(join(repo.commonDir, "shallow"))}`;
}

/** A repository (a submodule, a new checkout) between `dir` and the root we remembered makes the memory wrong. */
function nestedBetween(dir: string, root: string): boolean {
  for (let d = dir; d !== root && d.length > root.length; d = dirname(d)) if (existsSync(join(d, ".git"))) return true;
  return false;
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

  async answer(name: string, raw: Record<string, unknown>): Promise<unknown> {
    const def = findQuery(name)!;
    const input = validateInput(def, raw);
    if (typeof input.repo !== "string" || !isAbsolute(input.repo))
      throw new LoreError("BAD_ARGUMENT", "The daemon needs repo: the absolute path of a folder inside the repository.");
    const open = await this.open(input.repo);
    open.lastUsed = Date.now();
    if (def.needsIndex !== false) await this.ready(open);
    // A question about the index itself answers now and reports the update it started.
    else if (!this.isFresh(open)) this.update(open).catch(() => {});
    const ctx: QueryContext = { index: open.index, clock: () => new Date(), blameWorkers: this.blameWorkers, daemon: this.daemon() };
    return def.run(ctx, input as never);
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
      open = { repo, index, warmup: new Warmup(index, Math.max(1, this.blameWorkers - 1), log), lastUsed: Date.now(), stamps: "" };
      this.byRoot.set(repo.root, open);
      log(`opened ${repo.root}`);
    }
    if (!open.unwatch) {
      const o = open;
      if (o.warmup.stopped) o.warmup = new Warmup(o.index, Math.max(1, this.blameWorkers - 1), log);
      o.unwatch = watchRepo(repo, () => this.onChange(o), (err) => log(`watching ${repo.root}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return open;
  }

  /** True when the index is at the HEAD git's files name now: then a question needs no git at all. */
  private isFresh(open: OpenRepo): boolean {
    const head = readHeadCommit(open.repo);
    if (!head) return false;
    const { store } = open.index;
    const indexed = store.meta("indexedHead");
    return head === indexed && store.meta("treeHead") === indexed && fileStamps(open.repo) === open.stamps;
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
    const p = open.index.refresh().then((head) => {
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
