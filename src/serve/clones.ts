/**
 * lore serve's own clones of the repositories it serves, under its data folder: made once, then
 * fetched and moved to the followed branch's new head. Nobody works in them, so lore may write here
 * (the one place it does): the sources are only ever read by git fetch.
 */
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { gitText } from "../git/run.ts";
import type { ServedRepo } from "./options.ts";

/** git for cloning, fetching and checking out in the clones (run.ts's fetching git: no prompt, no hooks, the user's credentials). */
function git(cwd: string, args: string[], timeoutMs = 10 * 60_000): Promise<string> {
  return gitText(args, { cwd, timeoutMs, fetching: true }).then((out) => out.trim());
}

export interface Clone {
  repo: ServedRepo;
  /** The clone's folder (symlinks resolved): what the questions are asked of. */
  root: string;
  /** The branch it follows (the source's default unless the config names one). */
  branch: string;
  head: string;
}

export class Clones {
  private readonly clones = new Map<string, Clone>();
  private readonly running = new Map<string, Promise<boolean>>();

  constructor(private readonly data: string) {}

  get all(): Clone[] {
    return [...this.clones.values()];
  }

  /** The clone of `repo`, made now when there is none (a restarted server fetches the one it has). */
  async open(repo: ServedRepo): Promise<Clone> {
    const dir = join(this.data, "clones", repo.name);
    if (!existsSync(join(dir, ".git"))) {
      mkdirSync(join(this.data, "clones"), { recursive: true, mode: 0o700 });
      await git(this.data, ["clone", "-q", ...(repo.branch ? ["--branch", repo.branch] : []), "--", repo.source, dir]);
    } else if ((await git(dir, ["remote", "get-url", "origin"]).catch(() => "")) !== repo.source) await git(dir, ["remote", "set-url", "origin", repo.source]);
    const branch = repo.branch ?? (await git(dir, ["symbolic-ref", "--short", "HEAD"]));
    const clone = { repo, root: realpathSync(dir), branch, head: await git(dir, ["rev-parse", "HEAD"]) };
    this.clones.set(repo.name, clone);
    await this.refresh(repo.name);
    return clone;
  }

  /** Fetches the source and moves the clone to the followed branch's head; true when the head moved. One at a time per repository. */
  refresh(name: string): Promise<boolean> {
    const running = this.running.get(name);
    if (running) return running;
    const clone = this.clones.get(name)!;
    const job = (async () => {
      await git(clone.root, ["fetch", "-q", "--prune", "--no-tags", "origin", `+refs/heads/*:refs/remotes/origin/*`, "+refs/tags/*:refs/tags/*"]);
      const target = await git(clone.root, ["rev-parse", "--verify", `refs/remotes/origin/${clone.branch}^{commit}`]);
      if (target === clone.head) return false;
      // The clone's branch follows the source's, force-pushes included; its work tree is nobody's.
      await git(clone.root, ["checkout", "-q", "-B", clone.branch, target]);
      await git(clone.root, ["reset", "-q", "--hard", target]);
      clone.head = target;
      return true;
    })();
    this.running.set(name, job);
    return job.finally(() => this.running.delete(name));
  }
}
