/** How lore reads, sets and removes its one entry in a kind of file (JSON/JSONC, TOML, a marked Markdown block). */

export interface EntryFormat {
  /** lore's entry in `text` ("" for no file), or undefined; throws ConfigError when the text is not one lore can edit. */
  read(file: string, text: string): unknown;
  /** `text` with lore's entry set to `value`, everything else as it was. */
  set(file: string, text: string, value: unknown): string;
  /** `text` without lore's entry (and without a container lore's entry leaves empty). */
  remove(file: string, text: string): string;
}

/** Structural equality of JSON-like values; key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
