/**
 * The tuning halves of both corpus repositories, replayed in memory: hit@5 of review's missing on
 * the OLDER half of each repository's held-out commits only (the newer halves are never built
 * here), and with --older the 600 commits before both halves, for trying evidence and parameters.
 * `bun test/bench/missing-tune.ts [--search [--min-gain 0.005]] [--older] [--exclude RE] [--also-without RE] repo...`
 */
import { parseArgs } from "node:util";
import { MISSING_PARAMS, type RankParams } from "../../src/queries/run/missing-rank.ts";
import { hist, readHistory } from "./cochange-trial.ts";
import { coordinateSearch, top } from "./missing-trial.ts";
import { heldOutQueries, rawCounts, type HeldOut } from "./review-quality.ts";

type Hist = ReturnType<typeof hist>;

const mean = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0) / Math.max(1, xs.length);

/** Only the tuning half: the newer half's queries are dropped before anything is scored. */
export function tuningHalf(repo: string, n = 200): { h: Hist; qs: HeldOut[] } {
  const h = hist(readHistory(repo));
  return { h, qs: heldOutQueries(repo, h, 2 * n).filter((q) => q.split === "tune") };
}

/** The eligible commits older than both halves (the bench's newest 400), up to the `to` newest: more questions to choose on, which the bench never reports. */
export function olderSet(repo: string, from = 400, to = 1000): { h: Hist; qs: HeldOut[] } {
  const h = hist(readHistory(repo));
  const all = heldOutQueries(repo, h, to);
  const commits = [...new Set(all.map((q) => q.commit))].sort((a, b) => a - b);
  const older = new Set(commits.slice(from));
  return { h, qs: all.filter((q) => older.has(q.commit)) };
}

export const hitOf = (h: Hist, qs: HeldOut[], p: RankParams) => mean(qs, (q) => (top(h, q, p).includes(q.held) ? 1 : 0));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { search: { type: "boolean" }, older: { type: "boolean" }, "min-gain": { type: "string", default: "0.005" }, try: { type: "string", multiple: true }, exclude: { type: "string" }, "also-without": { type: "string" } }, allowPositionals: true });
  const sets = positionals.map((r) => ({ repo: r, ...tuningHalf(r) }));
  // --older: each repository's 600 commits before those the bench reads, as further sets.
  if (values.older) for (const r of positionals) sets.push({ repo: `${r} (older)`, ...olderSet(r) });
  // --exclude RE: leave out the commits any of whose files match (a robustness check: deno_dist/ mirrors only hono's older history).
  // --also-without RE: the same repositories again without those commits, as further sets the search averages over.
  if (values.exclude) {
    const re = new RegExp(values.exclude);
    for (const s of sets) s.qs = s.qs.filter((q) => !s.h.commits[q.commit]!.files.some((f) => re.test(f)));
  }
  if (values["also-without"]) {
    const re = new RegExp(values["also-without"]);
    for (const s of [...sets]) sets.push({ ...s, repo: `${s.repo} without ${re}`, qs: s.qs.filter((q) => !s.h.commits[q.commit]!.files.some((f) => re.test(f))) });
  }
  for (const s of sets) {
    const raw = mean(s.qs, (q) => (rawCounts(s.h, q).slice(0, 5).includes(q.held) ? 1 : 0));
    console.log(`${s.repo}: ${s.qs.length} tuning queries, raw ${raw.toFixed(3)}, now ${hitOf(s.h, s.qs, MISSING_PARAMS).toFixed(3)}`);
    const bySize = new Map<string, [number, number]>();
    for (const q of s.qs) {
      const n = q.change.length + 1;
      const b = n <= 4 ? "3-4" : n <= 8 ? "5-8" : n <= 15 ? "9-15" : "16-30";
      const v = bySize.get(b) ?? [0, 0];
      v[0] += top(s.h, q, MISSING_PARAMS).includes(q.held) ? 1 : 0;
      v[1]++;
      bySize.set(b, v);
    }
    console.log("  by commit size:", [...bySize].map(([b, [x, n]]) => `${b}: ${(x / n).toFixed(3)} of ${n}`).join(", "));
  }
  for (const t of values.try ?? []) {
    const p = { ...MISSING_PARAMS, ...JSON.parse(t) } as RankParams;
    const hits = sets.map((s) => hitOf(s.h, s.qs, p));
    console.log(`${t}: ${hits.map((x) => x.toFixed(3)).join(" ")}`);
  }
  if (values.search) {
    const t = coordinateSearch(MISSING_PARAMS, (p) => mean(sets, (s) => hitOf(s.h, s.qs, p)), 2, Number(values["min-gain"]));
    console.log(JSON.stringify(t.params), t.score.toFixed(3), sets.map((s) => hitOf(s.h, s.qs, t.params).toFixed(3)).join(" "));
  }
}

if (import.meta.main) await main();
