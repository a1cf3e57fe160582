/** The registry: every question lore answers, the only list the CLI, the daemon and MCP are built from. */
import { blameQuery } from "./blame.ts";
import { cochangeQuery } from "./cochange.ts";
import { contributorsQuery } from "./contributors.ts";
import type { AnyQuery } from "./define.ts";
import { historyQuery } from "./history.ts";
import { hotspotsQuery } from "./hotspots.ts";
import { intentQuery } from "./intent.ts";
import { searchQuery } from "./search.ts";
import { statusQuery } from "./status.ts";

export const QUERIES: readonly AnyQuery[] = [blameQuery, historyQuery, intentQuery, cochangeQuery, hotspotsQuery, contributorsQuery, searchQuery, statusQuery] as unknown as AnyQuery[];

export function findQuery(name: string): AnyQuery | undefined {
  return QUERIES.find((q) => q.name === name);
}
