/** The words a file's patch speaks of: identifiers on its changed lines and in its hunk headers' function context, lowercased, for naming what a change is about. */

/** Words kept per file at most: a rewritten file says what it is about in its first few hundred. */
const MAX_WORDS = 400;
/** `lines`: the patch as patchLines gives it. */
export function diffWords(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    const c = line[0];
    let body: string;
    if (c === "@") body = line.slice(line.indexOf("@@", 2) + 2);
    else if ((c === "+" || c === "-") && !line.startsWith("+++ ") && !line.startsWith("--- ")) body = line.slice(1);
    else continue;
    for (const m of body.matchAll(/[A-Za-z][A-Za-z0-9_]{2,40}/g)) {
      out.add(m[0].toLowerCase());
      if (out.size >= MAX_WORDS) return [...out];
    }
  }
  return [...out];
}
