/**
 * Which served repository a call reads: the one its `repo` names (a served name, or the source as
 * configured), the only one when the server serves one; never a folder of the server's, and no
 * path argument that leads out of the repository (absolute, `..`, or through a symlink).
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, posix, sep } from "node:path";
import { LoreError } from "../errors.ts";
import type { AnyQuery } from "../queries/define.ts";
import { pathArgNames } from "../queries/worktree-input.ts";
import { existingAncestor } from "../git/worktrees.ts";
import type { Clone } from "./clones.ts";

/** The root a call gets when it named no repository and the server serves several: the call then says which to name. */
export const UNNAMED = "";

export class ServeScope {
  constructor(private readonly clones: () => Clone[]) {}

  get names(): string[] {
    return this.clones().map((c) => c.repo.name);
  }

  /** The clone's root for `repoArg` (RepoScope's shape, so call-tool.ts takes either). */
  async resolve(repoArg: string | undefined, absolutePath?: string): Promise<string> {
    if (absolutePath !== undefined) throw outside(absolutePath);
    const all = this.clones();
    if (repoArg === undefined || repoArg === "") return all.length === 1 ? all[0]!.root : UNNAMED;
    const found = all.find((c) => c.repo.name === repoArg || c.repo.source === repoArg);
    if (!found) throw new LoreError("REPO_NOT_ALLOWED", `This lore server serves ${this.list()}; "${repoArg.slice(0, 200)}" is not one of them.`);
    return found.root;
  }

  /** A server has no MCP roots to ask for: the repositories are the ones it was told to serve. */
  askRoots(): void {}

  list(): string {
    return this.names.join(", ");
  }

  /** The clone a resolved root is; BAD_ARGUMENT naming the choices when the call named none of several. */
  cloneAt(root: string): Clone {
    const found = this.clones().find((c) => c.root === root);
    if (!found) throw new LoreError("BAD_ARGUMENT", `This lore server serves several repositories (${this.list()}): name one with repo.`);
    return found;
  }
}

function outside(path: string): LoreError {
  return new LoreError("PATH_OUTSIDE_REPO", `${path.slice(0, 200)} is outside the repository: on a lore server paths are relative to the repository's root.`);
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/** PATH_OUTSIDE_REPO for a path argument that is absolute, climbs out with `..`, or passes through a symlink that leads out of `root`. */
export function checkPaths(def: AnyQuery, input: Record<string, unknown>, root: string): void {
  for (const name of pathArgNames(def)) {
    const value = input[name];
    for (const p of Array.isArray(value) ? value : [value]) {
      if (typeof p !== "string" || p === "") continue;
      const norm = posix.normalize(p.replace(/\\/g, "/"));
      if (isAbsolute(p) || p.startsWith("/") || norm === ".." || norm.startsWith("../")) throw outside(p);
      let real: string;
      try {
        real = realpathSync(existingAncestor(join(root, norm)));
      } catch {
        continue;
      }
      if (!within(real, root)) throw outside(p);
    }
  }
}
