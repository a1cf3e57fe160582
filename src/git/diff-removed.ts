/** The lines a file's patch removes and does not add back, trimmed: what a change replaced, so a file that still has them may be one it forgot (a link, a call, a setting changed everywhere but there). */

/** A line shorter than this (after trimming) is too common to say anything: `}`, `return x`, `import a from 'b'`. */
export const MIN_LINE = 16;
/** Lines kept per file at most, the longest first: the longer, the rarer. */
const MAX_LINES = 50;

/** `lines`: the patch as patchLines gives it. */
export function diffRemoved(lines: readonly string[]): string[] {
  const removed = new Set<string>();
  const added = new Set<string>();
  for (const line of lines) {
    const c = line[0];
    if ((c !== "-" && c !== "+") || line.startsWith("--- ") || line.startsWith("+++ ")) continue;
    const body = line.slice(1).trim();
    if (c === "+") added.add(body);
    // Printable ASCII only: the line is searched for as given, whatever the file's encoding.
    else if (body.length >= MIN_LINE && /[A-Za-z]/.test(body) && /^[\x20-\x7e\t]+$/.test(body)) removed.add(body);
  }
  return [...removed].filter((l) => !added.has(l)).sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_LINES);
}
