/**
 * `npm run bench:search -- [--repo DIR] [--runs 15]`: the search table of `npm run bench` alone, on
 * one repository (express by default): a daemon on a LORE_HOME of its own indexes it, its
 * background pass runs to the end (the change index included), then each search is timed beside
 * git. For tuning search without the whole benchmark's five minutes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cloneExpress } from "../helpers/express.ts";
import { benchEnv, chooseLore, loreStatus } from "./lore-cli.ts";
import { pickTarget } from "./pairs.ts";
import { markdownTable } from "./report.ts";
import { readMeta, searchThroughDaemon } from "./search.ts";
import { socketPath } from "./socket.ts";
import { sleep, timeProcess } from "./timing.ts";

const { values } = parseArgs({ options: { repo: { type: "string" }, runs: { type: "string", default: "15" }, build: { type: "boolean" } } });
const repo = values.repo ?? cloneExpress();
const home = mkdtempSync(join(tmpdir(), "lore-bench-search-"));
const cli = chooseLore(values.build ? "build" : "auto");
for (const r of cli.remarks) console.log(r);
const env = benchEnv(home);
// The socket this LORE_HOME's daemon listens on.
process.env.LORE_HOME = home;
try {
  // The first status starts the daemon; the change index comes last in its pass.
  for (;;) {
    const s = await loreStatus(cli, repo, env);
    if (s.churnComplete && readMeta(s.dbPath, "codeHead") === s.indexedHead) {
      const table = await searchThroughDaemon(repo, await pickTarget(repo), cli.argv, env, socketPath(), s.dbPath, Number(values.runs));
      console.log(markdownTable(table));
      break;
    }
    await sleep(500);
  }
} finally {
  await timeProcess([...cli.argv, "daemon", "stop"], { cwd: repo, env });
  rmSync(home, { recursive: true, force: true });
}
