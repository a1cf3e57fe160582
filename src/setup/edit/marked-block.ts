/** lore's block in an agent's instructions file (AGENTS.md, GEMINI.md): the lines between two markers, and nothing else of the file. */
import { ConfigError } from "./config-error.ts";
import type { EntryFormat } from "./entry-format.ts";

export const BLOCK_BEGIN = "<!-- lore:begin (written by lore setup; lore setup --uninstall removes it) -->";
export const BLOCK_END = "<!-- lore:end -->";

const isBegin = (line: string) => /^<!-- lore:begin\b.*-->$/.test(line.trim());
const isEnd = (line: string) => line.trim() === BLOCK_END;

/** The lines (with their endings) and the index of lore's begin and end markers, or null. */
function locate(file: string, text: string): { lines: string[]; at: [number, number] | null } {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const begins = lines.flatMap((l, i) => (isBegin(l) ? [i] : []));
  const ends = lines.flatMap((l, i) => (isEnd(l) ? [i] : []));
  if (begins.length === 0 && ends.length === 0) return { lines, at: null };
  const [b] = begins;
  const [e] = ends;
  if (begins.length !== 1 || ends.length !== 1 || b === undefined || e === undefined || e < b) {
    const line = (begins.length > 1 ? begins[1] : b === undefined ? e : e === undefined || e < b ? b : e)! + 1;
    throw new ConfigError(file, "has lore's block markers out of order (one lore:begin, then one lore:end, are expected); lore left it as it is. Remove the stray marker, then run lore setup again", line);
  }
  return { lines, at: [b, e] };
}

export const markedBlock: EntryFormat = {
  read(file, text) {
    const { lines, at } = locate(file, text);
    return at ? lines.slice(at[0] + 1, at[1]).join("").replace(/\r\n/g, "\n").replace(/\n$/, "") : undefined;
  },
  set(file, text, content) {
    const block = `${BLOCK_BEGIN}\n${String(content)}\n${BLOCK_END}\n`;
    const { lines, at } = locate(file, text);
    if (at) return [...lines.slice(0, at[0]), block, ...lines.slice(at[1] + 1)].join("");
    let prefix = text && !text.endsWith("\n") ? `${text}\n` : text;
    if (prefix.trim()) prefix += "\n";
    return prefix + block;
  },
  remove(file, text) {
    const { lines, at } = locate(file, text);
    if (!at) return text;
    let [start] = at;
    // The blank line setup put before the block goes with it.
    if (start > 0 && lines[start - 1]!.trim() === "") start--;
    return [...lines.slice(0, start), ...lines.slice(at[1] + 1)].join("");
  },
};
