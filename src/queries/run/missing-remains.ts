/**
 * Lines the change removes that other files still have: a change that replaces a link, a call or a
 * setting in 14 files while 6 others keep it has likely forgotten those 6. The reader searches the
 * old side for the lines (one git grep); a file's worth is the share of the line's files the change
 * already took it out of.
 */

/** Lines searched for at most, the longest of the change's first: the longer, the rarer. */
export const MAX_SEARCHED = 30;
/** A line still in more files than this is boilerplate (a license header, a common import), not a replacement. */
const MAX_LEFT = 20;

export interface Remain {
  /** The line, trimmed. */
  line: string;
  /** Changed files whose patch removes it. */
  removed: number;
  /** Files outside the change that still have it. */
  left: number;
  /** A changed file that removes it. */
  from: string;
}

/** The lines to search for: the longest removed lines of the change, each once. */
export function searchedLines(removedBy: ReadonlyMap<string, readonly string[]>): string[] {
  const all = new Set<string>();
  for (const lines of removedBy.values()) for (const l of lines) all.add(l);
  return [...all].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_SEARCHED);
}

/** `git grep -F -o -z` output (`rev:path\0match\n` per match; `path\0match\n` in the work tree, rev "") as the files each line was found in. */
export function parseGrep(out: string, rev: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const prefix = rev ? `${rev}:` : "";
  for (const record of out.split("\n")) {
    const z = record.indexOf("\0");
    if (z < 0) continue;
    const at = record.slice(0, z);
    const path = at.startsWith(prefix) ? at.slice(prefix.length) : at;
    const line = record.slice(z + 1);
    let files = found.get(line);
    if (!files) found.set(line, (files = new Set()));
    files.add(path);
  }
  return found;
}

/** For each file of `tree` outside the change that still has a searched line: the line whose removal the change carried furthest. */
export function remainsOf(removedBy: ReadonlyMap<string, readonly string[]>, found: ReadonlyMap<string, ReadonlySet<string>>, change: ReadonlySet<string>, tree: ReadonlySet<string>): Map<string, Remain> {
  const out = new Map<string, Remain>();
  const share = (r: Remain) => r.removed / (r.removed + r.left);
  for (const line of searchedLines(removedBy)) {
    const files = [...(found.get(line) ?? [])].filter((f) => !change.has(f) && tree.has(f));
    if (files.length === 0 || files.length > MAX_LEFT) continue;
    const by = [...removedBy].filter(([, lines]) => lines.includes(line)).map(([f]) => f);
    const r: Remain = { line, removed: by.length, left: files.length, from: by[0]! };
    for (const f of files) {
      const best = out.get(f);
      if (!best || share(r) > share(best)) out.set(f, r);
    }
  }
  return out;
}
