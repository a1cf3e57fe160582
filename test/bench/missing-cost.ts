/**
 * What review's `missing` costs warm, in process (the daemon's path without the socket): a
 * 10-file change (the ten files changed most in the newest 400 commits, each edited), answered
 * by the ranking of the change as a whole beside cochange over the changed files (review before
 * issue 33), alternately, p50. `bun test/bench/missing-cost.ts REPO`.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import type { QueryContext } from "../../src/queries/context.ts";
import { PER_FILE } from "../../src/queries/cochange.ts";
import { run as cochange } from "../../src/queries/run/cochange.ts";
import { readChange } from "../../src/queries/run/review-change.ts";
import { missingOf } from "../../src/queries/run/review-missing.ts";
import { markdownTable, ms, ratio } from "./report.ts";
import { alternate, mustRun } from "./timing.ts";

async function main(): Promise<void> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-missing-")));
  process.env.LORE_HOME = join(scratch, "home");
  try {
    const clone = join(scratch, "clone");
    await mustRun(["git", "clone", "-q", "--shared", realpathSync(process.argv[2]!), clone], { cwd: scratch });
    const log = Buffer.from((await mustRun(["git", "log", "-n", "400", "--format=", "--name-only"], { cwd: clone })).stdout).toString("utf8");
    const counts = new Map<string, number>();
    for (const f of log.split("\n")) if (f) counts.set(f, (counts.get(f) ?? 0) + 1);
    const now = new Set(Buffer.from((await mustRun(["git", "ls-files"], { cwd: clone })).stdout).toString("utf8").split("\n"));
    const files = [...counts].filter(([f]) => now.has(f) && /\.(js|ts|md|json)$/.test(f)).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([f]) => f);
    for (const f of files) {
      const lines = readFileSync(join(clone, f), "utf8").split("\n");
      lines.splice(Math.floor(lines.length / 2), 1, "// edited for the benchmark");
      writeFileSync(join(clone, f), lines.join("\n"));
    }
    const index = await indexFor(clone);
    await index.refresh();
    const ctx: QueryContext = { index, clock: () => new Date(), blameWorkers: 2 };
    const head = (await index.scope()).commit;
    const change = await readChange(ctx, head, { base: undefined, staged: false, paths: [] });
    const paths = change.files.map((f) => f.path);
    const now33 = async () => {
      const t = performance.now();
      await missingOf(ctx, undefined, change.files, 5);
      return performance.now() - t;
    };
    const before = async () => {
      const t = performance.now();
      await cochange(ctx, { paths, changed: false, limit: 5 + paths.length, commits: String(PER_FILE), since: undefined, maxFiles: 50, all: true, repo: undefined, until: undefined });
      return performance.now() - t;
    };
    const r = await alternate(now33, before, 40, 5);
    const answer = await missingOf(ctx, undefined, change.files, 5);
    console.log(
      markdownTable({
        title: `review's missing, warm, in process: ${process.argv[2]}`,
        head: ["a 10-file change", "p50", "p99", "now / before"],
        rows: [
          ["missing now (the change as a whole)", ms(r.a.p50), ms(r.a.p99), ratio(r.a.p50, r.b.p50)],
          ["before: cochange over the 10 files", ms(r.b.p50), ms(r.b.p99), ""],
        ],
        notes: [`Changed: ${paths.join(", ")}. Answer: ${JSON.stringify(answer).length} bytes of JSON.`],
      }),
    );
  } finally {
    closeAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
