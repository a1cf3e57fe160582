/** The `historyStops` field every answer carries where its facts reach a shallow clone's boundary: its type, schema and one line of text. */
import type { z as Zod } from "zod";

/**
 * `at`: the boundary commits the answer reaches (12-hex id → author day), newest first, at most
 * STOPS_NAMED; `more`: how many more there are; `get`: how to get the history below them.
 */
export interface HistoryStops {
  at: Record<string, string>;
  more?: number;
  get: string;
}

export const STOPS_NAMED = 3;
export const GET_REST = "git fetch --unshallow, or lore index import FILE|URL";

export function historyStopsSchema(z: typeof Zod) {
  return z.object({ at: z.record(z.string(), z.string()), more: z.number().int().optional(), get: z.string() }).optional();
}

/** The text face's line: where history stops and how to get the rest. */
export function historyStopsLine(h: HistoryStops, codeSearch = false): string {
  const at = Object.entries(h.at).map(([sha, day]) => `${sha} (${day})`).join(", ");
  const what = codeSearch ? "the oldest commit found may not be the first" : "older history is not here";
  return `history stops at ${at}${h.more ? ` and ${h.more} more` : ""}: this clone is shallow, ${what} (the rest: ${h.get})`;
}
