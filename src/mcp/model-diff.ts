/**
 * A line history's diffs without their context lines, as `git diff -U0` prints them: each run of
 * removed and added lines under its own `@@ -a,b +c,d @@`. git log -L prints the whole range in every
 * commit; the lines a commit did not change were most of a 10-line history's tokens, and the agent
 * has the range as it is now (npm run bench:tasks).
 */

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/** git's header of a run: a count of 1 is left out, and a start with no lines is the line before. */
const side = (sign: string, start: number, n: number) => `${sign}${n === 0 ? start - 1 : start}${n === 1 ? "" : `,${n}`}`;

export function zeroContext(diff: string): string {
  const out: string[] = [];
  let oldLine = 0;
  let newLine = 0;
  let run: { old: number; new: number; lines: string[] } | undefined;
  const flush = () => {
    if (!run) return;
    const removed = run.lines.filter((l) => l.startsWith("-")).length;
    const added = run.lines.filter((l) => l.startsWith("+")).length;
    out.push(`@@ ${side("-", run.old, removed)} ${side("+", run.new, added)} @@`, ...run.lines);
    run = undefined;
  };
  let inHunk = false;
  for (const line of diff.split("\n")) {
    const h = HUNK.exec(line);
    if (h) {
      flush();
      // (a side of no lines names the line before it)
      [oldLine, newLine, inHunk] = [Number(h[1]) + (h[2] === "0" ? 1 : 0), Number(h[3]) + (h[4] === "0" ? 1 : 0), true];
    } else if (inHunk && (line.startsWith("-") || line.startsWith("+"))) {
      run ??= { old: oldLine, new: newLine, lines: [] };
      run.lines.push(line);
      if (line.startsWith("-")) oldLine++;
      else newLine++;
    } else if (inHunk && line.startsWith(" ")) {
      flush();
      oldLine++;
      newLine++;
    } else if (inHunk && line.startsWith("\\")) {
      // "\ No newline at end of file" belongs to the line before it.
      (run?.lines ?? out).push(line);
    } else {
      // Not a diff line (a cut's "… N more lines"): kept as it is.
      flush();
      inHunk = false;
      out.push(line);
    }
  }
  flush();
  return out.join("\n");
}
