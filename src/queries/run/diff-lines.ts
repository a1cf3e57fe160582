/**
 * A line history's diff within its lines (diffLines): git log -L prints the whole range as context
 * in every commit, so a cut by lines spent them on unchanged lines and lost the change. The changed
 * lines come first: each hunk keeps as many context lines around its changes as leave room for all
 * of them (down to none, as git diff -U0), and only then is the diff cut.
 */

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** git's header of a side: a count of 1 is left out, and a start with no lines is the line before. */
const side = (sign: string, start: number, n: number) => `${sign}${n === 0 ? start - 1 : start}${n === 1 ? "" : `,${n}`}`;

interface Hunk {
  old: number;
  new: number;
  tail: string;
  body: string[];
}

function hunksOf(diff: string[]): Hunk[] | undefined {
  const hunks: Hunk[] = [];
  for (const line of diff) {
    const h = HUNK.exec(line);
    if (h) hunks.push({ old: Number(h[1]), new: Number(h[2]), tail: h[3]!, body: [] });
    else if (hunks.length) hunks[hunks.length - 1]!.body.push(line);
    else return undefined;
  }
  return hunks;
}

const changed = (l: string) => l.startsWith("+") || l.startsWith("-");

/** The hunk with only the context within `k` lines of a change, split where the context between changes was dropped. */
function narrowed(h: Hunk, k: number): string[] {
  const near = h.body.map(() => Infinity);
  let last = -Infinity;
  h.body.forEach((l, i) => {
    if (changed(l) || l.startsWith("\\")) last = i;
    near[i] = i - last;
  });
  last = Infinity;
  for (let i = h.body.length - 1; i >= 0; i--) {
    if (changed(h.body[i]!) || h.body[i]!.startsWith("\\")) last = i;
    near[i] = Math.min(near[i]!, last - i);
  }
  const out: string[] = [];
  let oldLine = h.old;
  let newLine = h.new;
  let run: { old: number; new: number; lines: string[] } | undefined;
  const flush = () => {
    if (!run) return;
    const olds = run.lines.filter((l) => !l.startsWith("+") && !l.startsWith("\\")).length;
    const news = run.lines.filter((l) => !l.startsWith("-") && !l.startsWith("\\")).length;
    out.push(`@@ ${side("-", run.old, olds)} ${side("+", run.new, news)} @@${h.tail}`, ...run.lines);
    run = undefined;
  };
  h.body.forEach((l, i) => {
    if (near[i]! <= k) {
      run ??= { old: oldLine, new: newLine, lines: [] };
      run.lines.push(l);
    } else flush();
    if (l.startsWith("\\")) return;
    if (!l.startsWith("+")) oldLine++;
    if (!l.startsWith("-")) newLine++;
  });
  flush();
  return out;
}

/** The diff's lines within `max`, changes first; a cut ends with `… N more lines (--diff-lines)`. */
export function withinLines(diff: string[], max: number): string[] {
  if (diff.length <= max) return diff;
  const hunks = hunksOf(diff);
  let lines = diff;
  if (hunks && hunks.some((h) => h.body.some(changed))) {
    const at = (k: number) => hunks.flatMap((h) => narrowed(h, k));
    // The widest context that fits (context only as room remains), none when no width does.
    let lo = 0;
    let hi = Math.max(...hunks.map((h) => h.body.length));
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (at(mid).length <= max) lo = mid;
      else hi = mid - 1;
    }
    lines = at(lo);
  }
  if (lines.length <= max) return lines;
  const more = lines.length - max;
  return [...lines.slice(0, max), `… ${more} more line${more === 1 ? "" : "s"} (--diff-lines)`];
}
