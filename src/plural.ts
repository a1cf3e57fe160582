/** Counts in words: "1 commit", "2 commits", "line 4", "lines 4-9"; every face and message says them alike. */

/** The noun alone, for a count written elsewhere (a table's column, a formatted number). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** The count and its noun: plural(1, "file") is "1 file", plural(3, "person", "people") "3 people". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${noun(n, one, many)}`;
}

/** A span of lines: "line 4" for one, "lines 4-9" for more. */
export function lineSpan(a: number, b: number): string {
  return a === b ? `line ${a}` : `lines ${a}-${b}`;
}
