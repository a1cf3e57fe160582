/** A served repository's index taken from where a CI job publishes it (lore index export), then caught up to the clone's head; a failure is logged and the server indexes by itself. */
import { toLoreError } from "../errors.ts";
import { discoverRepo } from "../git/repo.ts";
import { importIndex } from "../portable/import.ts";
import type { PhaseLog } from "../portable/phase-log.ts";
import { parseHeaders } from "../portable/source.ts";
import type { Logger } from "./access-log.ts";
import type { Clone } from "./clones.ts";

/** The import's phases say nothing here: the server's log has one line for the whole import. */
const quiet = { begin() {}, tick() {}, async done() {} } as unknown as PhaseLog;

export async function importPublished(clone: Clone, adopt: (file: string, head: string) => Promise<unknown>, log: Logger): Promise<void> {
  const t0 = Date.now();
  try {
    const headers = parseHeaders(process.env.LORE_INDEX_HEADER ? [process.env.LORE_INDEX_HEADER] : []);
    // The file CI last published is often one the index already caught up from (after a fetch, or a restart): it is kept.
    const imported = await importIndex(await discoverRepo(clone.root), clone.repo.index!, headers, quiet, adopt, true);
    if (imported.unchanged) return log({ event: "index-import", repo: clone.repo.name, head: imported.head, outcome: "kept", ms: Date.now() - t0 });
    log({ event: "index-import", repo: clone.repo.name, head: imported.head, commits: imported.commits, ms: Date.now() - t0 });
  } catch (err) {
    log({ event: "index-import", repo: clone.repo.name, outcome: toLoreError(err).code, message: toLoreError(err).message });
  }
}
