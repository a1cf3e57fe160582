/** The registry: every question lore answers, the only list the CLI, the daemon and MCP are built from. */
import { blameQuery } from "./blame.ts";
import { branchesQuery } from "./branches.ts";
import { cochangeQuery } from "./cochange.ts";
import { contributorsQuery } from "./contributors.ts";
import type { AnyQuery } from "./define.ts";
import { changesQuery } from "./changes.ts";
import { gitQuery } from "./git.ts";
import { historyQuery } from "./history.ts";
import { hotspotsQuery } from "./hotspots.ts";
import { intentQuery } from "./intent.ts";
import { logQuery } from "./log.ts";
import { compareQuery } from "./compare.ts";
import { ownersQuery } from "./owners.ts";
import { restoreQuery } from "./restore.ts";
import { reviewQuery } from "./review.ts";
import { searchQuery } from "./search.ts";
import { showQuery } from "./show.ts";
import { snapshotQuery } from "./snapshot.ts";
import { snapshotsQuery } from "./snapshots.ts";
import { statusQuery } from "./status.ts";
import { suspectsQuery } from "./suspects.ts";

export const QUERIES: readonly AnyQuery[] = [blameQuery, historyQuery, intentQuery, cochangeQuery, hotspotsQuery, contributorsQuery, ownersQuery, logQuery, showQuery, compareQuery, reviewQuery, searchQuery, statusQuery, gitQuery, snapshotQuery, snapshotsQuery, changesQuery, restoreQuery, branchesQuery, suspectsQuery] as unknown as AnyQuery[];

export function findQuery(name: string): AnyQuery | undefined {
  return QUERIES.find((q) => q.name === name);
}
