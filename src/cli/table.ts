/** Aligned columns for human output. */

/** Width of a string as a terminal shows it (escape codes take no room). */
function width(s: string): number {
  return [...s.replace(/\x1b\[[0-9;]*m/g, "")].length;
}

export function pad(s: string, n: number, right = false): string {
  const fill = " ".repeat(Math.max(0, n - width(s)));
  return right ? fill + s : s + fill;
}

/** Rows of cells as aligned lines; `right` names the columns aligned to the right (numbers). */
export function table(rows: string[][], right: ReadonlySet<number> = new Set()): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, width(c))));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 && !right.has(i) ? c : pad(c, widths[i]!, right.has(i)))).join("  ").trimEnd());
}

export function shortSha(sha: string): string {
  return sha.slice(0, 10);
}

export function day(isoTime: string): string {
  return isoTime.slice(0, 10);
}
