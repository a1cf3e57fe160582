/** The modules a file's patch starts to import: the relative specifiers (./x, ../y/z.js) on its added lines, for naming the files a change now leans on. */

/** Specifiers kept per file at most. */
const MAX_IMPORTS = 50;

/** import … from './x', import './x', import('./x'), export … from './x', require('./x'). */
const SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"])(\.\.?(?:\/[^'"\n]*)?)\1/g;

/** `lines`: the patch as patchLines gives it. */
export function diffImports(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    if (line[0] !== "+" || line.startsWith("+++ ")) continue;
    for (const m of line.matchAll(SPECIFIER)) {
      out.add(m[2]!);
      if (out.size >= MAX_IMPORTS) return [...out];
    }
  }
  return [...out];
}
