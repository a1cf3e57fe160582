/** The words a file's patch speaks of: identifiers on its changed lines and in its hunk headers' function context, lowercased, for naming what a change is about. */

/** Words kept per file at most: a rewritten file says what it is about in its first few hundred. */
const MAX_WORDS = 400;
/** Bytes of a file's patch read at most. */
const MAX_BYTES = 64 * 1024;

export function diffWords(section: string): string[] {
  const out = new Set<string>();
  const text = section.length > MAX_BYTES ? section.slice(0, MAX_BYTES) : section;
  for (const line of text.split("\n")) {
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
