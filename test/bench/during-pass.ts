/**
 * Questions first, measured: the warm CLI answer time of `blame -L` and `history -n 20` while
 * the daemon's first background pass runs, against the same after it ends (target ≤ 1.3×).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LoreCli } from "./lore-cli.ts";
import type { Target } from "./pairs.ts";
import { ms, ratio, type Table } from "./report.ts";
import { median, sleep, timeProcess } from "./timing.ts";

export interface DuringPass {
  rows: { name: string; during: number; after: number; nDuring: number; nAfter: number }[];
  /** How long the background pass ran, wall time. */
  passMs: number;
}

const WARMED = /files blamed in (\d+) ms/;

function logFrom(home: string, from: number): string {
  const path = join(home, "daemon.log");
  return existsSync(path) ? readFileSync(path, "utf8").slice(from) : "";
}

/**
 * Call with `env.LORE_HOME` an empty folder (its own daemon). Alternates the two questions
 * while the pass runs (at most `maxSamples` of each), then as many after it.
 */
export async function duringPass(cli: LoreCli, t: Target, env: Record<string, string>, maxSamples = 30, timeoutMs = 15 * 60_000): Promise<DuringPass> {
  const home = env.LORE_HOME!;
  const questions = [
    { name: `blame -L ${t.range[0]},${t.range[1]}`, argv: [...cli.argv, "blame", t.file, "-L", `${t.range[0]},${t.range[1]}`, "--json"] },
    { name: "history -n 20", argv: [...cli.argv, "history", t.file, "-n", "20", "--json"] },
  ];
  const ask = async (argv: string[]) => {
    const r = await timeProcess(argv, { cwd: t.repo, env });
    if (r.code !== 0) throw new Error(`lore ${argv.slice(cli.argv.length).join(" ")} failed: ${r.stderr.trim()}`);
    return r.ms;
  };
  // The first question starts the daemon and the history index; the pass starts when it ends.
  const started = performance.now();
  for (const q of questions) await ask(q.argv);
  const during = questions.map(() => [] as number[]);
  const deadline = performance.now() + timeoutMs;
  while (!WARMED.test(logFrom(home, 0)) && performance.now() < deadline) {
    if (during[0]!.length < maxSamples) for (const [i, q] of questions.entries()) during[i]!.push(await ask(q.argv));
    else await sleep(100);
  }
  const passMs = performance.now() - started;
  const after = questions.map(() => [] as number[]);
  const n = Math.max(Math.min(5, maxSamples), during[0]!.length);
  for (let k = 0; k < n; k++) for (const [i, q] of questions.entries()) after[i]!.push(await ask(q.argv));
  return {
    rows: questions.map((q, i) => ({ name: q.name, during: median(during[i]!), after: median(after[i]!), nDuring: during[i]!.length, nAfter: after[i]!.length })),
    passMs,
  };
}

export function duringPassTable(runs: { label: string; d: DuringPass }[]): Table {
  return {
    title: "Questions first: warm CLI answers during the first background pass vs after it",
    head: ["repository", "question", "during the pass (p50)", "after it (p50)", "during/after", "samples", "pass"],
    rows: runs.flatMap(({ label, d }) => d.rows.map((r, i) => [i === 0 ? label : "", r.name, ms(r.during), ms(r.after), ratio(r.during, r.after), `${r.nDuring} / ${r.nAfter}`, i === 0 ? ms(d.passMs) : ""])),
    notes: [
      "A daemon on an empty LORE_HOME: the first questions start the history index; the two questions are then asked in turn while the background pass (commit-graph, blame of every file, churn, change index) runs, and as many times after it. Target: during/after ≤ 1.3×. Background git runs under nice -n 19 (and ionice -c3 where present) in a session whose autogroup is niced too, and waits while a question is answered.",
      "A pass shorter than a few questions gives few samples during it: the ratio is then noise.",
    ],
  };
}
