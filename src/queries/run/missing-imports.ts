/** Files a change's added import lines name: a changed file that starts to import ./types has likely changed types.ts too (a new export), resolved against the files at the old side. */

/** The endings tried after a specifier, in order (TypeScript's and Node's own resolution, roughly). */
const ENDINGS = ["", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", "/index.ts", "/index.tsx", "/index.js", "/index.jsx", "/index.mjs"];
/** A .js specifier in TypeScript names the .ts file beside it. */
const COMPILED = /\.(m|c)?jsx?$/;

/** The file of `tree` a relative specifier written in `from` names, if any. */
export function resolveImport(from: string, specifier: string, tree: ReadonlySet<string>): string | undefined {
  const parts = from.split("/");
  parts.pop();
  for (const s of specifier.split(/[?#]/)[0]!.split("/")) {
    if (s === "." || s === "") continue;
    if (s !== "..") parts.push(s);
    else if (parts.pop() === undefined) return undefined;
  }
  const path = parts.join("/");
  const stems = COMPILED.test(path) ? [path, path.replace(COMPILED, "")] : [path];
  for (const stem of stems) for (const end of ENDINGS) if (tree.has(stem + end)) return stem + end;
  return undefined;
}

/** For each file of `tree` outside the change that a changed file's added lines import: the first changed file that does. */
export function importedBy(imports: ReadonlyMap<string, readonly string[]>, tree: ReadonlySet<string>, change: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [from, specifiers] of imports)
    for (const s of specifiers) {
      const path = resolveImport(from, s, tree);
      if (path !== undefined && !change.has(path) && !out.has(path)) out.set(path, from);
    }
  return out;
}
