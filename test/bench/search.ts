/**
 * Search beside git (issue 12): message search vs `git log -i --all-match --grep`, code search vs
 * `git log -S` before and after the change index, line history vs `git log -L` first and repeated,
 * and what the change index costs (its pass against `git log -p`, its bytes on disk).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { updateCodeWords } from "../../src/index/code-words.ts";
import { runtime } from "../../src/runtime/index.ts";
import { answer } from "../../src/queries/answer.ts";
import type { Target } from "./pairs.ts";
import { ms, ratio, type Table } from "./report.ts";
import { latency } from "./socket.ts";
import { alternate, mustRun, repeat, timeProcess, type Sampled } from "./timing.ts";

export interface SearchSubjects {
  /** Two words that appear together in commit messages (git log --all-match finds some). */
  words: [string, string];
  /** An identifier of the asked file that git log -S finds in several commits. */
  ident: string;
  file: string;
  range: [number, number];
}

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const STOP = new Set(["the", "and", "for", "from", "with", "that", "this", "into", "when", "merge", "branch", "pull", "request"]);

/** The most frequent message words (4+ letters) that also appear together, and a long identifier the asked file uses a few times. */
export async function searchSubjects(repo: string, t: Target): Promise<SearchSubjects> {
  const o = { cwd: repo };
  const subjects = text((await mustRun(["git", "log", "-n", "3000", "--format=%s"], o)).stdout).toLowerCase();
  const counts = new Map<string, number>();
  for (const w of subjects.match(/[a-z]{4,}/g) ?? []) if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  let words: [string, string] = [ranked[0] ?? "fix", ranked[1] ?? "test"];
  for (const w of ranked.slice(1, 12)) {
    const both = text((await mustRun(["git", "log", "-i", "--all-match", `--grep=${ranked[0]}`, `--grep=${w}`, "--format=%h"], o)).stdout).trim();
    if (both.split("\n").filter(Boolean).length >= 3) {
      words = [ranked[0]!, w];
      break;
    }
  }
  const source = text((await mustRun(["git", "show", `HEAD:${t.file}`], o)).stdout);
  const ids = new Map<string, number>();
  for (const w of source.match(/[A-Za-z_][A-Za-z0-9_]{5,}/g) ?? []) ids.set(w, (ids.get(w) ?? 0) + 1);
  // A name the file uses a few times: the kind an agent asks "when did this appear?" about (a word on every line would be found at once).
  const few = [...ids].filter(([w, n]) => n >= 2 && n <= 5 && w.length >= 8).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const ident = (few[0] ?? [...ids].sort((a, b) => b[1] - a[1])[0])?.[0] ?? "function";
  return { words, ident, file: t.file, range: t.range };
}

export interface SearchRow {
  name: string;
  lore: number;
  git: number;
  target: string;
  gitLabel: string;
}

/** Rows of the search table: lore beside git, ratio, target. */
export function searchTable(title: string, rows: SearchRow[], notes: string[]): Table {
  return {
    title,
    head: ["question", "lore p50", "git p50", "lore/git", "target", "git side"],
    align: "lrrrll",
    rows: rows.map((r) => [r.name, ms(r.lore), Number.isFinite(r.git) ? ms(r.git) : "", Number.isFinite(r.git) ? ratio(r.lore, r.git) : "", r.target, r.gitLabel]),
    notes,
  };
}

function gitSides(s: SearchSubjects) {
  const [w1, w2] = s.words;
  const [a, b] = s.range;
  return {
    grep: { label: `git log -i --all-match --grep=${w1} --grep=${w2}`, argv: ["git", "log", "-i", "--all-match", `--grep=${w1}`, `--grep=${w2}`] },
    pickaxe: { label: `git log -S ${s.ident} -n 5`, argv: ["git", "log", `-S${s.ident}`, "-n", "5"] },
    // What lore must walk to say whether the list of 5 is cut: up to a 6th match.
    pickaxeMore: { label: `git log -S ${s.ident} -n 6 (the same walk)`, argv: ["git", "log", `-S${s.ident}`, "-n", "6"] },
    oldest: { label: `git log -S ${s.ident} --reverse (first)`, argv: ["git", "log", `-S${s.ident}`, "--reverse", "--format=%H"] },
    lines: { label: `git log -L ${a},${b}:${s.file}`, argv: ["git", "log", `-L${a},${b}:${s.file}`] },
    patch: { label: "git log -p", argv: ["git", "log", "-p", "--format=%H"] },
  };
}

/** Runs `fn` on an index of `repo` of its own, in this process (a LORE_HOME of its own, removed after). */
async function ownIndex<T>(repo: string, fn: (ix: Awaited<ReturnType<typeof indexFor>>) => Promise<T>): Promise<T> {
  const saved = process.env.LORE_HOME;
  const home = mkdtempSync(join(tmpdir(), "lore-search-bench-"));
  process.env.LORE_HOME = home;
  try {
    const ix = await indexFor(repo);
    await ix.refresh();
    return await fn(ix);
  } finally {
    closeAll();
    if (saved === undefined) delete process.env.LORE_HOME;
    else process.env.LORE_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
}

/** Measures the change index's pass in this process, on an index of its own, alternating with git log -p. */
export async function changeIndexCost(repo: string, runs: number): Promise<{ pass: Sampled; git: Sampled; bytes: number }> {
  const side = gitSides({ words: ["", ""], ident: "", file: "", range: [1, 1] }).patch;
  return ownIndex(repo, async (ix) => {
    const t = await alternate(
      async () => {
        ix.store.transaction(() => ix.store.search.clearCodeIndex());
        const t0 = performance.now();
        await updateCodeWords(ix);
        return performance.now() - t0;
      },
      async () => (await mustRun(side.argv, { cwd: repo, discard: true })).ms,
      runs,
      0,
    );
    return { pass: t.a, git: t.b, bytes: ix.store.search.codeIndexBytes() ?? NaN };
  });
}

/**
 * Code search before the change index exists (through git alone), in this process on an index of
 * its own, alternating with git log -S: a daemon fills a missing change index within seconds, so
 * it cannot be asked for this for long.
 */
export async function codeSearchBeforePass(repo: string, ident: string, runs: number): Promise<{ lore: number; git: number; sameWalk: number }> {
  const sides = gitSides({ words: ["", ""], ident, file: "", range: [1, 1] });
  return ownIndex(repo, async () => {
    const t = await alternate(
      async () => {
        const t0 = performance.now();
        await answer("search", { repo, query: ident, code: true }, { cwd: repo });
        return performance.now() - t0;
      },
      async () => (await mustRun(sides.pickaxe.argv, { cwd: repo, discard: true })).ms,
      runs,
      2,
    );
    const sameWalk = await repeat(async () => (await mustRun(sides.pickaxeMore.argv, { cwd: repo, discard: true })).ms, runs, 1);
    return { lore: t.a.p50, git: t.b.p50, sameWalk: sameWalk.p50 };
  });
}

/**
 * Through the daemon (npm run bench): warm CLI and daemon p50 beside git. `--until HEAD` keeps
 * the daemon's answer cache out of the computed rows; "before the pass" hides the change index
 * from the daemon (its codeHead) for the time of the measurement.
 */
export async function searchThroughDaemon(repo: string, t: Target, cliArgv: string[], env: Record<string, string>, socket: string, dbPath: string, runs: number, passCost = true): Promise<Table> {
  const s = await searchSubjects(repo, t);
  const g = gitSides(s);
  const o = { cwd: repo };
  const cli = async (args: string[]) => {
    const r = await timeProcess([...cliArgv, ...args, "--json"], { cwd: repo, env });
    if (r.code !== 0) throw new Error(`lore ${args.join(" ")} failed: ${r.stderr.trim()}`);
    return r.ms;
  };
  const git = async (argv: string[]) => (await mustRun(argv, { ...o, discard: true })).ms;
  const pair = async (args: string[] | ((i: number) => string[]), argv: string[]) => {
    let i = 0;
    const r = await alternate(() => cli(typeof args === "function" ? args(i++) : args), () => git(argv), runs, 2);
    return { lore: r.a.p50, git: r.b.p50 };
  };
  const q = s.words.join(" ");
  const rows: SearchRow[] = [];
  const msgDaemon = await latency(socket, "search", (i: number) => ({ repo, query: q, until: "HEAD", limit: 20 + (i % 2) }), 300, 20);
  rows.push({ name: `search "${q}" (daemon, computed)`, lore: msgDaemon.p50, git: NaN, target: "≤ 5 ms", gitLabel: "" });
  rows.push({ name: `search "${q}" (warm CLI)`, ...(await pair(["search", q, "--until", "HEAD"], g.grep.argv)), target: "≤ 0.1×", gitLabel: g.grep.label });
  const before = await codeSearchBeforePass(repo, s.ident, runs);
  rows.push({ name: `search --code ${s.ident} (before the pass, in process)`, lore: before.lore, git: before.git, target: "≤ 1.1×", gitLabel: g.pickaxe.label });
  rows.push({ name: `search --code ${s.ident} (before the pass, in process)`, lore: before.lore, git: before.sameWalk, target: "", gitLabel: g.pickaxeMore.label });
  const codeDaemon = await latency(socket, "search", (i: number) => ({ repo, query: s.ident, code: true, until: "HEAD", limit: 5 + (i % 2) }), 300, 20);
  rows.push({ name: `search --code ${s.ident} (daemon, computed)`, lore: codeDaemon.p50, git: NaN, target: "", gitLabel: "" });
  rows.push({ name: `search --code ${s.ident} (after the pass)`, ...(await pair(["search", "--code", s.ident, "--until", "HEAD"], g.pickaxe.argv)), target: "≤ 0.05×", gitLabel: g.pickaxe.label });
  rows.push({ name: `search --code ${s.ident} --oldest -n 1`, ...(await pair(["search", "--code", s.ident, "--oldest", "-n", "1", "--until", "HEAD"], g.oldest.argv)), target: "", gitLabel: g.oldest.label });
  const L = `${s.range[0]},${s.range[1]}`;
  rows.push({ name: `history -L ${L} (first time)`, ...(await pair((i) => ["history", s.file, "-L", L, "--diff-lines", String(1000 + i), "--until", "HEAD"], g.lines.argv)), target: "≤ 1.1×", gitLabel: g.lines.label });
  const repeated = await repeat(() => cli(["history", s.file, "-L", L, "--until", "HEAD"]), runs, 2);
  rows.push({ name: `history -L ${L} (repeated)`, lore: repeated.p50, git: NaN, target: "≤ 5 ms", gitLabel: "" });
  if (passCost) {
    const cost = await changeIndexCost(repo, Math.min(runs, 3));
    rows.push({ name: `change index pass (${(cost.bytes / 1024 / 1024).toFixed(1)} MiB on disk)`, lore: cost.pass.p50, git: cost.git.p50, target: "", gitLabel: g.patch.label });
  }
  return searchTable("Search beside git: message words, code changes, line history", rows, [
    `Warm CLI calls (process start included) alternating with git, p50 of ${runs}; --until HEAD keeps the daemon's answer cache out (a repeated identical question is answered from it). ` +
      "Before the pass: code search goes through git alone (git log -S -n 6 with the patches of what it finds: a 6th match says whether the list of 5 is cut), timed in this process on an index without the change index; after: the daemon answers from the change index alone (git confirms only commits the index could not name). " +
      "history -L first time: a new --diff-lines each call (a miss in lore's line-history cache); repeated: from that cache. The change index pass runs in this process on an index of its own, p50 alternating with git log -p.",
  ]);
}

export function readMeta(dbPath: string, key: string): string | undefined {
  const db = runtime.openDatabase(dbPath);
  try {
    const r = db.prepare("SELECT value FROM meta WHERE key = ?").get(key);
    return r ? String(r.value) : undefined;
  } finally {
    db.close();
  }
}

/** In this process, as the daemon answers (npm run bench:scale): each question's p50 beside git's, on an index already refreshed. */
export async function searchInProcess(repo: string, t: Target, runs: number): Promise<SearchRow[]> {
  const s = await searchSubjects(repo, t);
  const g = gitSides(s);
  const o = { cwd: repo, discard: true };
  const ask = (name: string, input: Record<string, unknown>) => answer(name, { repo, until: "HEAD", ...input }, { cwd: repo });
  const git = async (argv: string[]) => (await repeat(() => mustRun(argv, o), runs, 1)).p50;
  const lore = async (name: string, input: Record<string, unknown> | ((i: number) => Record<string, unknown>)) => {
    let i = 0;
    return (await repeat(() => ask(name, typeof input === "function" ? input(i++) : input), runs, 1)).p50;
  };
  const ix = await indexFor(repo);
  const rows: SearchRow[] = [];
  const q = s.words.join(" ");
  rows.push({ name: `search "${q}"`, lore: await lore("search", { query: q }), git: await git(g.grep.argv), target: "≤ 5 ms", gitLabel: g.grep.label });
  ix.store.setMeta("codeHead", undefined);
  const pickaxeGit = await git(g.pickaxe.argv);
  rows.push({ name: `search --code ${s.ident} (before the pass)`, lore: await lore("search", { query: s.ident, code: true }), git: pickaxeGit, target: "≤ 1.1×", gitLabel: g.pickaxe.label });
  const t0 = performance.now();
  await updateCodeWords(ix);
  const pass = performance.now() - t0;
  rows.push({ name: `change index pass (${((ix.store.search.codeIndexBytes() ?? NaN) / 1024 / 1024).toFixed(1)} MiB)`, lore: pass, git: await git(g.patch.argv), target: "", gitLabel: g.patch.label });
  rows.push({ name: `search --code ${s.ident} (after the pass)`, lore: await lore("search", { query: s.ident, code: true }), git: pickaxeGit, target: "≤ 0.05×", gitLabel: g.pickaxe.label });
  const L = { path: s.file, lines: `${s.range[0]},${s.range[1]}` };
  rows.push({ name: "history -L (first time)", lore: await lore("history", (i) => ({ ...L, diffLines: 1000 + i })), git: await git(g.lines.argv), target: "≤ 1.1×", gitLabel: g.lines.label });
  rows.push({ name: "history -L (repeated)", lore: await lore("history", L), git: NaN, target: "≤ 5 ms", gitLabel: "" });
  return rows;
}
