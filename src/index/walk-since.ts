/**
 * git's revisions for a pass over the commits a pass at `from` did not see: `head --not from`; in a
 * shallow clone that lacks `from` (an imported index's head the clone does not reach, such as a branch
 * forked before it), `head --not` the clone's newest commits the index holds below `from`.
 */
import { gitMaybe, gitText } from "../git/run.ts";
import type { IndexContext } from "./context.ts";
import { overWhole } from "./shallow-order.ts";
import { walkOrder } from "./walk-order.ts";

export async function sinceRevs(ix: IndexContext, head: string, from: string): Promise<string[]> {
  if (!overWhole(ix) || (await gitMaybe(["cat-file", "-e", `${from}^{commit}`], ix.git)) !== null) return [head, "--not", from];
  const graph = ix.store.history.commitGraph();
  const seen = new Set(walkOrder(from, (sha) => graph.get(sha)).order);
  // Each commit of the clone with its parents as the clone has them (none for a boundary commit).
  const clone = (await gitText(["rev-list", "--parents", head, "--"], ix.git)).split("\n").filter(Boolean).map((l) => l.split(" "));
  const held = clone.filter(([sha]) => seen.has(sha!));
  // The index's commits reach down from these: excluding them excludes every one the clone has.
  const below = new Set(held.flatMap(([, ...parents]) => parents));
  return [head, "--not", ...held.map(([sha]) => sha!).filter((sha) => !below.has(sha))];
}
