/** `lore index build|export|import`: the index built now (what a CI job runs), written as one file, or read from one. */
import { resolve } from "node:path";
import { parseCommandArgv } from "../cli/argv.ts";
import { withInterrupt } from "../cli/interrupt.ts";
import { LoreError } from "../errors.ts";
import { dropPrefetched } from "../git/prefetch.ts";
import { discoverRepo } from "../git/repo.ts";
import { ensureGit } from "../git/version.ts";
import { closeAll, indexOf } from "../index/indexes.ts";
import { runtime } from "../runtime/index.ts";
import { buildIndex } from "./build.ts";
import { startCatchUp } from "./early-catch-up.ts";
import { exportIndex } from "./export.ts";
import { importIndex, removeImportLeftovers } from "./import.ts";
import { PhaseLog } from "./phase-log.ts";
import { parseHeaders } from "./source.ts";

const HELP = `lore index — build the index now, or carry it to another machine as one file

Usage:
  lore index build                    build every part of the index now (history, tree, blame of
                                      every file, line churn, code search), progress on stderr
  lore index export FILE|-            write the index at HEAD to FILE (- : stdout) as one portable
                                      file; builds what is missing first
  lore index import FILE|-|URL        check an index file and put it in place of this repository's
                                      index, then bring it to HEAD (only the commits since its head)

Flags:
  --repo DIR                          the repository (default: the current folder)
  --header 'Name: value'              import: a header for the GET of a URL (or LORE_INDEX_HEADER),
                                      e.g. 'Authorization: Bearer …'; never logged nor stored
  --json                              print a JSON summary on stdout

Exit status 0 when every part is done; 1 with a sentence and a code when not (docs/cloud.md).`;

export async function indexCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgv(argv, { repo: { type: "string" }, header: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, "index", true);
  const [action, target, ...extra] = parsed.positionals;
  if (parsed.values.help) {
    await runtime.write(1, HELP + "\n");
    return 0;
  }
  if (action === undefined) {
    await runtime.write(2, HELP + "\n");
    return 2;
  }
  const json = parsed.values.json === true;
  const wants = action === "build" ? 0 : 1;
  if (!["build", "export", "import"].includes(action)) throw new LoreError("USAGE", `lore index has no "${action}"; use build, export or import.`);
  if ((target === undefined ? 0 : 1 + extra.length) !== wants)
    throw new LoreError("USAGE", action === "build" ? "lore index build takes no arguments." : `lore index ${action} takes one ${action === "export" ? "FILE (or - for stdout)" : "FILE, - or URL"}.`);
  if (action === "export" && target === "-" && json) throw new LoreError("USAGE", "lore index export - writes the index file on stdout: --json cannot share it.");
  if (parsed.values.header !== undefined && action !== "import") throw new LoreError("USAGE", "--header is for lore index import of a URL.");
  // git's version and the repository asked of git at once; a git lore cannot use is said first.
  const found = discoverRepo(resolve(typeof parsed.values.repo === "string" ? parsed.values.repo : ".")).then(
    (repo) => ({ repo }),
    (err: unknown) => ({ err }),
  );
  await ensureGit();
  const discovered = await found;
  if ("err" in discovered) throw discovered.err;
  const { repo } = discovered;
  const log = await PhaseLog.open();
  const t0 = Date.now();
  let summary: Record<string, unknown>;
  try {
    // Ctrl-C ends git and an import's files beside the index; the index is as it was, or caught up in
    // part as after an interrupted update (the next answer goes on from there).
    summary = await withInterrupt(async () => {
      if (action === "build") return { ...(await buildIndex(indexOf(repo), log)) };
      if (action === "export") {
        const m = await exportIndex(indexOf(repo), target === "-" ? "-" : resolve(target!), log);
        return { head: m.head, commits: m.commits, whole: m.whole, bytes: m.payloadBytes, compression: m.compression };
      }
      const given = [process.env.LORE_INDEX_HEADER, parsed.values.header].filter((h): h is string => typeof h === "string" && h !== "");
      // The catch-up's git runs while the file is checked (early-catch-up.ts); ended below if unused.
      const imported = await importIndex(repo, target!, parseHeaders(given), log, undefined, false, (m) => startCatchUp(repo, m));
      // Caught up as after new commits: only the commits since the index's head are read; the files they
      // changed are blamed by the daemon's warm-up or when asked (lore index build blames them now).
      const built = await buildIndex(indexOf(repo), log, { blame: false });
      return { imported: imported.head, head: built.head, newCommits: built.commits - imported.commits, commits: built.commits };
    }, () => removeImportLeftovers(repo));
  } finally {
    dropPrefetched();
    closeAll();
  }
  if (json) await runtime.write(1, JSON.stringify({ ...summary, seconds: Math.round((Date.now() - t0) / 100) / 10 }) + "\n");
  return 0;
}
