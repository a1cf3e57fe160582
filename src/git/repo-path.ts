/** Turns a path a person typed into a path relative to the repository root, refusing anything outside it. */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { LoreError } from "../errors.ts";

/** The nearest existing ancestor of `p`, symlinks resolved, with the rest appended. */
function realish(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return p;
      tail.push(head.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      head = parent;
    }
  }
}

/**
 * `input` is relative to `base` (the caller's folder on the CLI, the root elsewhere) or absolute.
 * Returns the repository-relative path with "/" separators ("" for the root itself).
 */
export function repoRelativePath(root: string, input: string, base: string = root): string {
  if (input.includes("\0")) throw new LoreError("BAD_ARGUMENT", "A path cannot contain a NUL byte.");
  const abs = isAbsolute(input) ? input : resolve(base, input);
  const outside = () => new LoreError("PATH_OUTSIDE_REPO", `${input} is outside the repository at ${root}; name a file inside it.`);
  const lexical = relative(root, abs);
  if (lexical === ".." || lexical.startsWith(".." + sep) || isAbsolute(lexical)) throw outside();
  // A symlinked folder inside the work tree may still lead outside it.
  const real = relative(root, realish(abs));
  if (real === ".." || real.startsWith(".." + sep) || isAbsolute(real)) {
    // The path itself may be a symlink tracked by git: then its own name is what git knows.
    const parentReal = relative(root, realish(dirname(abs)));
    if (parentReal === ".." || parentReal.startsWith(".." + sep) || isAbsolute(parentReal)) throw outside();
  }
  return lexical.split(sep).join("/");
}
