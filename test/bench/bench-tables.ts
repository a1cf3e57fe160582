/** The main benchmark's measurements turned into its tables, with the targets each is held to. */
import type { QualityResult } from "./cochange-quality.ts";
import { qualityTable } from "./cochange-quality.ts";
import type { Freshness } from "./freshness.ts";
import type { ColdIndex, GitFloors } from "./index-cost.ts";
import type { Pair, Target } from "./pairs.ts";
import { bytes, machineLine, ms, num, ratio, type Machine, type Table } from "./report.ts";
import type { Sampled } from "./timing.ts";

export interface Load {
  clients: number;
  method: string;
  /** The same question every call (answer-cache hits) rather than a new spelling each time. */
  cached: boolean;
  qps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface Measured {
  machine: Machine;
  repo: { label: string; commits: number; files: number; head: string };
  target: Target;
  lore: string;
  loreRemarks: string[];
  floors: GitFloors;
  cold: ColdIndex;
  /** RepoIndex.refresh in-process against git log --raw, alternating. */
  historyIndex: { lore: Sampled; git: Sampled };
  /** The xargs blame floor run with lore's commit-graph. */
  blameWithGraph: number;
  cli: { pair: Pair; lore: Sampled; git: Sampled; runs: number; warmups: number; loreBytes: number; gitBytes: number }[];
  /** `lore --version` and `git --version`: what starting the process costs. */
  startup: { lore: Sampled; git: Sampled };
  /** The daemon's transport alone (the ping method). */
  ping: Sampled;
  daemon: { pair: Pair; repeated: Sampled; computed: Sampled }[];
  throughput: Load[];
  transport: Load;
  peakKiB: number;
  dbBytes: number;
  fresh?: Freshness;
  freshShared: boolean;
  quality?: QualityResult;
}

const yes = (ok: boolean) => (ok ? "✅ met" : "❌ missed");

function targets(m: Measured): Table {
  const rows: string[][] = [];
  const over = m.cli.filter((c) => c.lore.p50 / c.git.p50 > 0.2);
  const worst = [...m.cli].sort((a, b) => b.lore.p50 / b.git.p50 - a.lore.p50 / a.git.p50)[0];
  rows.push([
    "warm CLI answer ≤ 0.2× the git command (p50)",
    `${m.cli.length - over.length}/${m.cli.length} questions; worst ${worst ? `${worst.pair.name} ${ratio(worst.lore.p50, worst.git.p50)}` : "n/a"}`,
    over.length === 0 ? yes(true) : `${yes(false)}: ${over.map((c) => c.pair.name).join(", ")}`,
  ]);
  const slow = m.daemon.filter((d) => d.computed.p50 > 1);
  const slowCached = m.daemon.filter((d) => d.repeated.p50 > 1);
  rows.push([
    "daemon answer p50 ≤ 1 ms",
    `computed: ${m.daemon.length - slow.length}/${m.daemon.length} questions; repeated (answer cache): ${m.daemon.length - slowCached.length}/${m.daemon.length}`,
    slow.length === 0 ? yes(true) : `${yes(false)}: ${slow.map((d) => `${d.pair.name} ${ms(d.computed.p50)}`).join(", ")}`,
  ]);
  const computed = Math.max(...m.throughput.filter((t) => !t.cached).map((t) => t.qps));
  const cached = Math.max(...m.throughput.filter((t) => t.cached).map((t) => t.qps));
  rows.push([
    "≥ 5,000 socket queries/s on 2 cores",
    `computed ${Math.round(computed)} q/s, repeated (answer cache) ${Math.round(cached)} q/s (best of ${[...new Set(m.throughput.map((t) => t.clients))].join(", ")} clients)`,
    computed >= 5000 ? yes(true) : cached >= 5000 ? `${yes(false)} for computed answers (met from the answer cache)` : yes(false),
  ]);
  const h = m.historyIndex;
  rows.push([
    "history index ≤ 1.25× git log --raw",
    `${ms(h.lore.p50)} vs ${ms(h.git.p50)} = ${ratio(h.lore.p50, h.git.p50)} (p50 of ${h.lore.samples.length}, alternating; in the daemon, cold: ${ms(m.cold.historyIndexMs)})`,
    yes(h.lore.p50 / h.git.p50 <= 1.25),
  ]);
  // The blame of every file and the commit-graph written for it; churn, the pass's other part, is not blame.
  const parts = m.cold.parts;
  const split = Number.isFinite(parts.graphMs) && Number.isFinite(parts.blameMs);
  const blameMs = split ? parts.graphMs + parts.blameMs : m.cold.backgroundMs;
  rows.push([
    "background blame ≤ 0.35× xargs -P2 git blame",
    `${ms(blameMs)} vs ${ms(m.floors.blameAll)} = ${ratio(blameMs, m.floors.blameAll)} (${split ? "commit-graph + blame of every file" : "the whole background pass"})`,
    yes(blameMs / m.floors.blameAll <= 0.35),
  ]);
  const blames = m.cli.filter((c) => c.pair.rpc.method === "blame");
  const blameOk = blames.every((c) => c.loreBytes / c.gitBytes <= 0.35);
  rows.push(["blame JSON ≤ 0.35× git blame --porcelain bytes", blames.map((c) => `${c.pair.name} ${ratio(c.loreBytes, c.gitBytes)}`).join("; "), yes(blameOk)]);
  if (m.quality) {
    const q = m.quality;
    const base = q.rows[1]!.scores;
    rows.push([
      "co-change hit@5 and recall@10 not below the raw-count baseline (+0.05 over express and hono: npm run bench:quality)",
      `hit@5 ${num(q.lore.hit5)} vs ${num(base.hit5)}; recall@10 ${num(q.lore.recall10)} vs ${num(base.recall10)}`,
      yes(q.lore.hit5 >= base.hit5 && q.lore.recall10 >= base.recall10),
    ]);
  }
  return { title: "Targets", head: ["target", "measured", "status"], rows, align: "lll" };
}

export function benchTables(m: Measured, o: { runs: number; warmups: number; calls: number; throughputMs: number }): Table[] {
  const t = m.target;
  const header: Table = {
    title: "Setup",
    head: ["", ""],
    align: "ll",
    rows: [
      ["machine", machineLine(m.machine)],
      ["repository", `${m.repo.label}: ${m.repo.commits} commits, ${m.repo.files} files at HEAD ${m.repo.head}; git commit-graph: ${m.floors.hasCommitGraph ? "yes" : "none"}`],
      ["asked about", `${t.file} (${t.lines} lines; the most often changed source file at HEAD), range ${t.range[0]},${t.range[1]}`],
      ["lore", `${m.lore}${m.loreRemarks.length ? ` (${m.loreRemarks.join("; ")})` : ""}, warm daemon, --json`],
    ],
  };
  const heavy = m.cli.find((c) => c.runs !== o.runs);
  const cli: Table = {
    title: "Warm CLI answer vs the git an agent runs (process start included)",
    head: ["question", "lore p50", "git p50", "lore/git", "lore p99", "git side"],
    align: "lrrrrl",
    rows: m.cli.map((c) => [c.pair.name, ms(c.lore.p50), ms(c.git.p50), ratio(c.lore.p50, c.git.p50), ms(c.lore.p99), c.pair.gitLabel]),
    notes: [
      `lore and git alternate, ${o.runs} runs each after ${o.warmups} warm-ups${heavy ? ` (${heavy.pair.name}: ${heavy.runs} after ${heavy.warmups}: its git side takes seconds)` : ""}; p99 of so few runs is about the slowest. ` +
        "Repeated identical calls are answered from the daemon's answer cache; a new question adds the daemon's computed time (next table). " +
        "git sequences (intent) run one process after another, as an agent would; co-change and hotspots count git log's output in the benchmark's process. " +
        "status: lore reports the index (HEAD, branch, freshness); the nearest git is `git status --porcelain=v2 --branch`. " +
        `Start-up alone: \`lore --version\` ${ms(m.startup.lore.p50)}, \`git --version\` ${ms(m.startup.git.p50)} (p50).`,
    ],
  };
  const size: Table = {
    title: "Answer size: lore JSON vs the git output it replaces",
    head: ["question", "lore JSON", "git output", "lore/git"],
    rows: m.cli.map((c) => [c.pair.name, bytes(c.loreBytes), bytes(c.gitBytes), ratio(c.loreBytes, c.gitBytes)]),
  };
  const daemon: Table = {
    title: "The daemon itself: JSON-RPC POST /rpc straight to the Unix socket",
    head: ["question", "computed p50", "computed p99", "repeated p50", "calls"],
    rows: [
      ...m.daemon.map((d) => [d.pair.name, ms(d.computed.p50), ms(d.computed.p99), ms(d.repeated.p50), `${d.computed.samples.length} + ${d.repeated.samples.length}`]),
      ["transport only (ping)", ms(m.ping.p50), ms(m.ping.p99), "", String(m.ping.samples.length)],
      ...[...m.throughput, m.transport].map((x) => [
        `throughput, ${x.clients} clients, ${x.method}${x.method === "ping" ? "" : x.cached ? " repeated" : " computed"}`,
        `${Math.round(x.qps)} q/s`,
        ms(x.p99),
        "",
        x.errors ? `${x.errors} errors` : "",
      ]),
      ["peak memory (VmHWM), after indexing and all of the above", bytes(m.peakKiB * 1024), "", "", ""],
    ],
    notes: [
      `Sequential calls from one client (up to ${o.calls} per question and kind, fewer when a question's time budget ran out), client time included. ` +
        "Computed: each call names the file a different way (./lib/x.js, ././lib/x.js, …: the same work), which misses the daemon's answer cache (500 answers, kept until the index moves); repeated: the identical call, answered from that cache after the first. " +
        `Throughput: N calls always in flight from one client process for ${o.throughputMs / 1000} s; client and daemon share the 2 cores.`,
    ],
  };
  const c = m.cold;
  const f = m.floors;
  const index: Table = {
    title: "Indexing a fresh clone (empty LORE_HOME, through the daemon)",
    head: ["step", "lore", "git floor", "lore/git"],
    align: "lrlr",
    rows: [
      ["first question (`lore history FILE`: daemon start, as much history as the answer needs, answer)", ms(c.firstQuestionMs), "", ""],
      [`history + tree index, in-process RepoIndex.refresh (p50 of ${m.historyIndex.lore.samples.length}, alternating with git)`, ms(m.historyIndex.lore.p50), `${ms(m.historyIndex.git.p50)} git log --raw`, ratio(m.historyIndex.lore.p50, m.historyIndex.git.p50)],
      ["history + tree index in the daemon, cold (its log)", ms(c.historyIndexMs), `${ms(f.logRaw)} git log --raw`, ratio(c.historyIndexMs, f.logRaw)],
      [`background pass: commit-graph, blame of ${c.filesBlamed} files, churn, change index (${c.source})`, ms(c.backgroundMs), `${ms(f.blameAll)} git ls-files | xargs -P2 -n1 git blame`, ratio(c.backgroundMs, f.blameAll)],
      ["  the same xargs blame, git given lore's commit-graph (changed-path Bloom filters)", "", ms(m.blameWithGraph), ratio(c.backgroundMs, m.blameWithGraph)],
      ...(Number.isFinite(c.parts.graphMs) ? [["  its parts: writing the commit-graph", ms(c.parts.graphMs), "", ""]] : []),
      ...(Number.isFinite(c.parts.blameMs) ? [["  then: blame of every file (all cores)", ms(c.parts.blameMs), "", ""]] : []),
      ...(Number.isFinite(c.parts.churnMs) ? [["  then: churn (line counts of all history)", ms(c.parts.churnMs), `${ms(f.logNumstat)} git log --numstat`, ratio(c.parts.churnMs, f.logNumstat)]] : [["  then churn; alone, git reads it in", "", `${ms(f.logNumstat)} git log --numstat`, ""]]),
      ["index size on disk (SQLite + WAL)", bytes(m.dbBytes), "", ""],
    ],
    notes: [
      `git floors: median of 3 runs (blame of every file: ${m.floors.blameAllSamples.length}, the last right after the background pass), output read and thrown away, on the repository as cloned.` +
        " The background pass's times are the daemon's own log line (blame of every file on all cores, then churn; a question's own blame never waits for that pool); the first question's is wall time.",
    ],
  };
  const tables = [header, targets(m), cli, size, daemon, index];
  if (m.fresh) {
    const fr = m.fresh;
    tables.push({
      title: "A new commit shows in answers",
      head: ["how", "p50", "p99", "rounds"],
      rows: [
        ["watcher alone: commit → daemon has indexed it (nobody asking)", ms(fr.watcher.p50), ms(fr.watcher.p99), `${fr.watcher.samples.length}${fr.watcherMissed ? ` (${fr.watcherMissed} not within 10 s)` : ""}`],
        [`next question right after the commit (lore history, CLI)${fr.allSeen ? ", new commit in every answer" : ", NOT always in the answer"}`, ms(fr.nextQuestion.p50), ms(fr.nextQuestion.p99), String(fr.nextQuestion.samples.length)],
      ],
      notes: [m.freshShared ? "Commits made in a `git clone --shared` of the repository, never in it." : "Commits made in the benchmark's own clone."],
    });
  }
  if (m.quality) tables.push(qualityTable(m.quality, m.repo.label));
  return tables;
}
