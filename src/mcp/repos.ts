/**
 * Which repository a tool call reads: the one the server was started in, or one the
 * `repo` argument names — only inside the starting folder or LORE_MCP_ALLOWED_REPOS,
 * so a prompt-injected agent cannot point lore at repositories the user never opened.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { LoreError, type ErrorCode } from "../errors.ts";
import { discoverRepo } from "../git/repo.ts";

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

export class RepoScope {
  private readonly roots = new Map<string, string>();
  private home: string | null = null;
  private readonly allowedExtra: string[];

  constructor(
    private readonly startDir: string,
    allowedEnv = process.env.LORE_MCP_ALLOWED_REPOS ?? "",
  ) {
    this.allowedExtra = allowedEnv
      .split(":")
      .filter((p) => p.trim() !== "" && isAbsolute(p))
      .map(real);
  }

  /** The starting repository's root; found once, retried while the folder is not (yet) a repository. */
  async homeRoot(): Promise<string> {
    this.home ??= (await discoverRepo(this.startDir)).root;
    return this.home;
  }

  /** Folders whose repositories a call may read. */
  private async allowed(): Promise<string[]> {
    const home = await this.homeRoot().catch(() => real(this.startDir));
    return [home, ...this.allowedExtra];
  }

  /** The root of the repository a call reads; REPO_NOT_ALLOWED when `repoArg` leads outside what is allowed. */
  async resolve(repoArg: string | undefined): Promise<string> {
    if (repoArg === undefined || repoArg === "") return this.homeRoot();
    const base = await this.homeRoot().catch(() => this.startDir);
    const dir = real(resolve(base, repoArg));
    const allowed = await this.allowed();
    const refuse = () =>
      new LoreError(
        NOT_ALLOWED,
        `lore may not read ${repoArg}: it is outside the repository this server was started in (${allowed[0]}). To allow it, add its folder to LORE_MCP_ALLOWED_REPOS (colon-separated) in the MCP server's environment.`,
      );
    if (!allowed.some((a) => within(dir, a))) throw refuse();
    let root = this.roots.get(dir);
    if (!root) {
      root = (await discoverRepo(dir)).root;
      this.roots.set(dir, root);
    }
    // A folder inside an allowed one can still belong to a repository above it (when the start folder is no repository).
    if (!allowed.some((a) => within(root, a))) throw refuse();
    return root;
  }
}
