/** A file's patch as lines, for the scanners that read what a change is about (diff-words, diff-imports, diff-removed): split once, its first 64 KB. */

/** Bytes of a file's patch read at most. */
const MAX_BYTES = 64 * 1024;

export function patchLines(section: string): string[] {
  return (section.length > MAX_BYTES ? section.slice(0, MAX_BYTES) : section).split("\n");
}
