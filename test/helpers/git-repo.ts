/** Builds real git repositories in temporary folders for tests, with deterministic dates and authors. */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CommitBatch, importCommits } from "./commit-stream.ts";

export interface Author {
  name: string;
  email: string;
}

export const ALICE: Author = { name: "Alice Example", email: "alice@example.com" };
export const BOB: Author = { name: "Bob Example", email: "bob@example.com" };
export const CAROL: Author = { name: "Carol Ünicode", email: "carol@example.com" };

/** A new test repository's own settings: the committer, and no signing. */
const LOCAL_CONFIG = "[user]\n\tname = Test Committer\n\temail = committer@example.com\n[commit]\n\tgpgsign = false\n";

/** The date of a test repository's `tick`-th commit: a minute after the one before, from a fixed start. */
export function tickDate(tick: number): string {
  return `${1_700_000_000 + tick * 60} +0000`;
}

export function tempDir(prefix = "lore-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Runs git in `cwd` with a clean, fixed identity; returns stdout (throws on failure). */
export function runGit(cwd: string, args: string[], env: Record<string, string> = {}, input?: string | Uint8Array): string {
  const r = spawnSync("git", args, {
    cwd,
    input,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C", ...env },
    encoding: "buffer",
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString("utf8");
}

/** Like runGit, but the raw bytes of stdout. */
export function runGitBytes(cwd: string, args: string[]): Buffer {
  const r = spawnSync("git", args, { cwd, env: { ...process.env, LC_ALL: "C" }, maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout;
}

export class TestRepo {
  private tick = 0;
  readonly dir: string;

  constructor(dir?: string, init = true) {
    this.dir = dir ?? tempDir();
    if (init) {
      this.git("init", "-q", "-b", "main");
      // What `git config` would write for the identity and signing, at once: three git processes fewer per test repository.
      appendFileSync(join(this.dir, ".git", "config"), LOCAL_CONFIG);
    }
  }

  git(...args: string[]): string {
    return runGit(this.dir, args);
  }

  write(path: string, content: string | Uint8Array): this {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return this;
  }

  remove(path: string): this {
    rmSync(join(this.dir, path), { recursive: true, force: true });
    return this;
  }

  /** Commits everything in the work tree; each commit is one minute after the last. */
  commit(message: string, author: Author = ALICE, extra: string[] = []): string {
    this.tick++;
    const date = tickDate(this.tick);
    runGit(this.dir, ["add", "-A"]);
    runGit(this.dir, ["commit", "-q", "--allow-empty", "-m", message, ...extra], {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    return this.head();
  }

  /**
   * Many commits at once: `build` writes, removes and commits on a batch as it would on the repo, and
   * the batch becomes the same commits commit() would have made (dated one minute apart, after the
   * last), through one git fast-import instead of two git processes a commit; then the work tree is
   * HEAD's. Start from a committed work tree: what is written but not committed is not in the batch.
   */
  commits(build: (batch: CommitBatch) => void): string[] {
    const batch = new CommitBatch();
    build(batch);
    if (batch.uncommitted > 0) throw new Error(`${batch.uncommitted} change(s) written after the batch's last commit`);
    const headFile = readFileSync(join(this.dir, ".git", "HEAD"), "utf8").trim();
    const branch = /^ref: refs\/heads\/(\S+)$/.exec(headFile)?.[1];
    if (!branch) throw new Error("commits() adds to a branch; HEAD is detached");
    let parent: string | undefined;
    try {
      parent = this.head();
    } catch {
      // An unborn branch: the batch's first commit is the root.
    }
    const first = this.tick;
    this.tick += batch.steps.length;
    return importCommits(this.dir, branch, parent, batch.steps, (n) => tickDate(first + n + 1));
  }

  /** Merges `branch` with a merge commit. */
  merge(branch: string, message = `Merge ${branch}`): string {
    this.tick++;
    const date = tickDate(this.tick);
    runGit(this.dir, ["merge", "-q", "--no-ff", "-m", message, branch], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: BOB.name, GIT_AUTHOR_EMAIL: BOB.email });
    return this.head();
  }

  /**
   * HEAD's commit, read from the files git has just written (a rev-parse per commit is thousands of
   * processes over the suite); git's own answer where they are not plain (a worktree, packed refs).
   */
  head(): string {
    try {
      const gitDir = join(this.dir, ".git");
      const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
      const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
      const sha = ref ? readFileSync(join(gitDir, ref), "utf8").trim() : head;
      if (/^[0-9a-f]{40}$/.test(sha)) return sha;
    } catch {}
    return this.git("rev-parse", "HEAD").trim();
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Lines of a numbered text file, for edits that move blame around. */
export function lines(...items: (string | number)[]): string {
  return items.map(String).join("\n") + "\n";
}
