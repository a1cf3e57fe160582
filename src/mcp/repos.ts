/**
 * Which repository and worktree a tool call reads: the one the server was started in (or the
 * client's first root), or one the call's `repo` or absolute paths name — only inside the
 * starting folder, the client's roots or LORE_MCP_ALLOWED_REPOS, or another worktree of the
 * starting repository, so a prompt-injected agent cannot point lore at repositories the user never opened.
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { LoreError, type ErrorCode } from "../errors.ts";
import { discoverRepo, type Repo } from "../git/repo.ts";
import { existingAncestor, linkedCommonDir } from "../git/worktrees.ts";

/** Not in ErrorCode's union yet; the MCP face is the only one that refuses repositories. */
const NOT_ALLOWED: ErrorCode = "REPO_NOT_ALLOWED";

/** `p` with symlinks resolved as far as it exists (a missing folder keeps its lexical tail). */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : resolve(real(parent), p.slice(parent.length).replace(/^[/\\]+/, ""));
  }
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** A root's folder from its file:// URI; undefined for anything else. */
export function rootFolder(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === "file:" && (url.host === "" || url.host === "localhost") ? decodeURIComponent(url.pathname) : undefined;
  } catch {
    return undefined;
  }
}

export class RepoScope {
  private readonly repos = new Map<string, Repo>();
  private home: Repo | null = null;
  private readonly allowedExtra: string[];
  /** The folders the client says the agent works in (MCP roots), symlinks resolved; the first is where it works now. */
  private roots: string[] = [];
  private rootRepo: Repo | null | undefined;
  /** Set while the client is asked for its roots: a call waits for the answer (briefly). */
  private pendingRoots: Promise<unknown> | undefined;

  constructor(
    private readonly startDir: string,
    allowedEnv = process.env.LORE_MCP_ALLOWED_REPOS ?? "",
  ) {
    this.allowedExtra = allowedEnv
      .split(":")
      .filter((p) => p.trim() !== "" && isAbsolute(p))
      .map(real);
  }

  /** The client's roots (file:// URIs; others ignored), asked with `list`; a call meanwhile waits up to a second for them. */
  askRoots(list: () => Promise<string[]>): void {
    const asked = list().then(
      (uris) => {
        this.roots = uris.flatMap((u) => {
          const f = rootFolder(u);
          return f && isAbsolute(f) ? [real(f)] : [];
        });
        this.rootRepo = undefined;
      },
      () => {},
    );
    this.pendingRoots = asked;
    void asked.finally(() => {
      if (this.pendingRoots === asked) this.pendingRoots = undefined;
    });
  }

  private async rootsKnown(): Promise<void> {
    if (this.pendingRoots) await Promise.race([this.pendingRoots, new Promise((r) => setTimeout(r, 1000).unref?.())]);
  }

  private async discover(dir: string): Promise<Repo> {
    let repo = this.repos.get(dir);
    if (!repo) {
      repo = await discoverRepo(dir);
      this.repos.set(dir, repo);
    }
    return repo;
  }

  /** The starting folder's repository; found once, retried while the folder is not (yet) a repository. */
  private async homeRepo(): Promise<Repo> {
    this.home ??= await discoverRepo(this.startDir);
    return this.home;
  }

  /** The worktree a call without `repo` or absolute paths reads: the client's first root's (where the agent works), else the starting folder's. */
  async homeRoot(): Promise<string> {
    await this.rootsKnown();
    if (this.rootRepo === undefined) {
      const first = this.roots[0];
      this.rootRepo = first === undefined ? null : await this.discover(first).catch(() => null);
    }
    return (this.rootRepo ?? (await this.homeRepo())).root;
  }

  /** Folders whose repositories a call may read. */
  private async allowed(): Promise<string[]> {
    const home = await this.homeRepo().then((r) => r.root, () => real(this.startDir));
    return [home, ...this.roots, ...this.allowedExtra];
  }

  /** True when `commonDir` is the starting repository's (or a root's): another worktree of it has the same objects, the same history. */
  private async sameRepository(commonDir: string | undefined): Promise<boolean> {
    if (commonDir === undefined) return false;
    const home = await this.homeRepo().catch(() => null);
    return home?.commonDir === commonDir || this.rootRepo?.commonDir === commonDir;
  }

  /**
   * The root of the worktree a call reads: `repoArg`'s, else the one its first absolute path is
   * in, else the default; REPO_NOT_ALLOWED when that leads outside what is allowed.
   */
  async resolve(repoArg: string | undefined, absolutePath?: string): Promise<string> {
    await this.rootsKnown();
    if (repoArg === undefined || repoArg === "") {
      if (absolutePath === undefined) return this.homeRoot();
      // The folder the path is (or is in), as far as it exists.
      const near = existingAncestor(absolutePath);
      repoArg = near === absolutePath && statSync(near).isDirectory() ? near : near === absolutePath ? dirname(near) : near;
    }
    const base = await this.homeRoot().catch(() => this.startDir);
    const dir = real(resolve(base, repoArg));
    const allowed = await this.allowed();
    const refuse = () =>
      new LoreError(
        NOT_ALLOWED,
        `lore may not read ${repoArg}: it is outside the repository this server was started in (${allowed[0]}). To allow it, add its folder to LORE_MCP_ALLOWED_REPOS (colon-separated) in the MCP server's environment.`,
      );
    const inside = allowed.some((a) => within(dir, a));
    if (!inside) {
      // Another worktree of the same repository (git worktree add ../feat) is that repository, wherever its folder is.
      // Told from the folder's files first: git runs only in a folder that turns out to be one of ours.
      if (!(await this.sameRepository(linkedCommonDir(dir)))) throw refuse();
      const other = await this.discover(dir);
      if (!(await this.sameRepository(other.commonDir))) throw refuse();
      return other.root;
    }
    const repo = await this.discover(dir);
    // A folder inside an allowed one can still belong to a repository above it (when the start folder is no repository).
    if (!allowed.some((a) => within(repo.root, a)) && !(await this.sameRepository(repo.commonDir))) throw refuse();
    return repo.root;
  }
}
