/** Parses `git log -L … --format=LINE_LOG_FORMAT`: each commit with its range (the + side of its hunks) and its hunks. */

export const LINE_LOG_FORMAT = "%x1e%H%x00%aN%x00%at%x00%s%x00";

export interface LineLogCommit {
  sha: string;
  author: string;
  time: number;
  subject: string;
  /** The lines of the range in this commit's version (the + side of its hunks); null without hunks (a merge git shows). */
  range: [number, number] | null;
  /** The same lines in the parent's version (the - side); null without hunks. */
  before: [number, number] | null;
  /** The hunk lines as git prints them, from the first @@ on. */
  diff: string[];
}

const START = /\x1e(?=[0-9a-f]{40,64}\0)/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseLineLog(text: string): LineLogCommit[] {
  const out: LineLogCommit[] = [];
  for (const rec of text.split(START)) {
    if (rec === "") continue;
    const f = rec.split("\0", 5);
    const body = f[4] ?? "";
    const lines = body.split("\n");
    const first = lines.findIndex((l) => l.startsWith("@@ "));
    const diff = first < 0 ? [] : lines.slice(first);
    while (diff.length && diff[diff.length - 1] === "") diff.pop();
    const plus = side(diff, 3);
    out.push({ sha: f[0]!, author: f[1]!, time: Number(f[2]), subject: f[3]!, range: plus, before: side(diff, 1), diff });
  }
  return out;
}

/** The lines the hunks cover on one side (group 1: -, group 3: +); an empty side counts its anchor line. */
function side(diff: string[], group: 1 | 3): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of diff) {
    const m = HUNK.exec(l);
    if (!m) continue;
    const start = Number(m[group]);
    const count = m[group + 1] === undefined ? 1 : Number(m[group + 1]);
    lo = Math.min(lo, start);
    hi = Math.max(hi, start + Math.max(count, 1) - 1);
  }
  return lo === Infinity ? null : [lo, hi];
}
