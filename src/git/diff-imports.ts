/** The modules a file's patch starts to import: the relative specifiers (./x, ../y/z.js) on its added lines, for naming the files a change now leans on. */

/** Specifiers kept per file at most. */
const MAX_IMPORTS = 50;
/** Bytes of a file's patch read at most. */
const MAX_BYTES = 64 * 1024;

/** import … from './x', import './x', import('./x'), export … from './x', require('./x'). */
const SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"])(\.\.?(?:\/[^'"\n]*)?)\1/g;

export function diffImports(section: string): string[] {
  const out = new Set<string>();
  const text = section.length > MAX_BYTES ? section.slice(0, MAX_BYTES) : section;
  for (const line of text.split("\n")) {
    if (line[0] !== "+" || line.startsWith("+++ ")) continue;
    for (const m of line.matchAll(SPECIFIER)) {
      out.add(m[2]!);
      if (out.size >= MAX_IMPORTS) return [...out];
    }
  }
  return [...out];
}
