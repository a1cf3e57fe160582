/**
 * Each question beside the git an agent runs today for the same answer: the lore command line,
 * the git side as the processes (and the little counting) an agent's script would run, and a label.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mustRun, type RunOptions } from "./timing.ts";

export interface Target {
  repo: string;
  /** The file the per-file questions ask about. */
  file: string;
  lines: number;
  /** The line range of blame -L and intent. */
  range: [number, number];
  /** Two more often-changed files: with `file`, the edit `cochange --changed` is timed on. */
  others?: string[];
}

export interface Pair {
  /** Row name in the tables. */
  name: string;
  /** lore's arguments (the CLI adds --json). */
  lore: string[];
  /** The lore call as RPC method and params, for the daemon's own answer time. */
  rpc: { method: string; params: Record<string, unknown> };
  /**
   * The same call, its path spelled a different way each time (./lib/x.js, ././lib/x.js, ...):
   * the same work, but a miss in the daemon's answer cache (which keeps 500 answers).
   */
  uncached: (i: number) => Record<string, unknown>;
  /** Declared by a question with no single path to respell (log, show, compare): how it misses the answer cache. */
  respelled?: (i: number) => Record<string, unknown>;
  /** What the git side runs, for the table. */
  gitLabel: string;
  /** Runs the git side once; returns the bytes git wrote (what the agent would read). */
  git: (opts: RunOptions) => Promise<number>;
  /** Slow on the git side: fewer runs. */
  heavy?: boolean;
}

const git = (args: string[], opts: RunOptions) => mustRun(["git", ...args], opts);
const text = (b: Uint8Array) => Buffer.from(b).toString("latin1");

const COMMIT_WINDOW = 500;
const MAX_FILES = 50;

/** The ten biggest counts, as the script would print them. */
function top(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 10);
}

/** `git log -n 500 --name-only`, split into the file lists of its commits (merges have none). */
async function windowFiles(opts: RunOptions): Promise<{ files: string[][]; bytes: number }> {
  const out = await git(["log", "-n", String(COMMIT_WINDOW), "--name-only", "-z", "--format=%x01%H"], opts);
  const files = text(out.stdout)
    .split("\x01")
    .slice(1)
    .map((c) => c.split(/[\n\0]/).slice(1).filter(Boolean));
  return { files, bytes: out.stdout.length };
}

/** What an agent's script does for co-change: the file's newest 200 commits with all their files, counted. */
async function gitCochange(file: string, opts: RunOptions): Promise<number> {
  const out = await git(["log", "-n", "200", "--full-diff", "--name-only", "-z", "--format=%x01%H", "--", file], opts);
  const counts = new Map<string, number>();
  for (const rec of text(out.stdout).split("\x01").slice(1)) {
    const c = rec.split(/[\n\0]/).slice(1).filter(Boolean);
    if (c.length > MAX_FILES) continue;
    for (const f of c) if (f !== file) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  top(counts);
  return out.stdout.length;
}

/** And for hotspots: count commits per file, most first. */
async function gitHotspots(opts: RunOptions): Promise<number> {
  const { files, bytes } = await windowFiles(opts);
  const counts = new Map<string, number>();
  for (const c of files) for (const f of c) counts.set(f, (counts.get(f) ?? 0) + 1);
  top(counts);
  return bytes;
}

/** Blame of the range, then `git show` of each commit it names, one process after another. */
async function gitIntent(t: Target, opts: RunOptions): Promise<number> {
  const blame = await git(["blame", "--porcelain", "-L", `${t.range[0]},${t.range[1]}`, "--", t.file], opts);
  let total = blame.stdout.length;
  const shas = new Set<string>();
  for (const m of text(blame.stdout).matchAll(/^([0-9a-f]{40}) \d+ \d+/gm)) if (!/^0+$/.test(m[1]!)) shas.add(m[1]!);
  for (const sha of shas) total += (await git(["show", "--name-only", sha], opts)).stdout.length;
  return total;
}

/** Every file blamed, two at a time, and the lines summed per author. */
async function gitContributors(opts: RunOptions): Promise<number> {
  const out = await mustRun(["sh", "-c", "git ls-files -z | xargs -0 -P2 -n1 git blame --porcelain --"], opts);
  const lines = new Map<string, number>();
  const author = new Map<string, string>();
  let sha = "";
  for (const l of text(out.stdout).split("\n")) {
    const head = /^([0-9a-f]{40}) \d+ \d+/.exec(l);
    if (head) {
      sha = head[1]!;
      lines.set(sha, (lines.get(sha) ?? 0) + 1);
    } else if (l.startsWith("author ") && !author.has(sha)) author.set(sha, l.slice(7));
  }
  const byAuthor = new Map<string, number>();
  for (const [s, n] of lines) byAuthor.set(author.get(s) ?? "?", (byAuthor.get(author.get(s) ?? "?") ?? 0) + n);
  return out.stdout.length;
}

/** Spellings of one path that name the same file; 700 of them, more than the daemon's answer cache holds. */
export function respell(path: string, i: number): string {
  return "./".repeat(1 + (i % 700)) + path;
}

export function pairs(t: Target): Pair[] {
  return questionPairs(t).map((p) => ({
    ...p,
    uncached: (i: number) => {
      const { params } = p.rpc;
      if (p.respelled) return p.respelled(i);
      if (Array.isArray(params.paths)) return { ...params, paths: params.paths.map((x: string) => respell(x, i)) };
      return p.rpc.method === "status" ? params : { ...params, path: respell(typeof params.path === "string" ? params.path : "", i) };
    },
  }));
}

function questionPairs(t: Target): Omit<Pair, "uncached">[] {
  const [a, b] = t.range;
  const L = `${a},${b}`;
  const file = { repo: t.repo, path: t.file };
  const dir = t.file.includes("/") ? t.file.slice(0, t.file.indexOf("/")) : ".";
  return [
    {
      name: `blame -L ${L}`,
      lore: ["blame", t.file, "-L", L],
      rpc: { method: "blame", params: { ...file, startLine: a, endLine: b } },
      gitLabel: `git blame --porcelain -L ${L}`,
      git: async (o) => (await git(["blame", "--porcelain", "-L", L, "--", t.file], o)).stdout.length,
    },
    {
      name: `blame (${t.lines} lines)`,
      lore: ["blame", t.file],
      rpc: { method: "blame", params: file },
      gitLabel: "git blame --porcelain",
      git: async (o) => (await git(["blame", "--porcelain", "--", t.file], o)).stdout.length,
    },
    {
      name: "history -n 20",
      lore: ["history", t.file, "-n", "20"],
      rpc: { method: "history", params: { ...file, limit: 20 } },
      gitLabel: "git log -n 20 --follow --numstat",
      git: async (o) => (await git(["log", "-n", "20", "--follow", "--numstat", "--", t.file], o)).stdout.length,
    },
    {
      name: `intent -L ${L}`,
      lore: ["intent", t.file, "-L", L],
      rpc: { method: "intent", params: { ...file, startLine: a, endLine: b } },
      gitLabel: "git blame -L, then git show --name-only per commit",
      git: (o) => gitIntent(t, o),
    },
    {
      name: "cochange",
      lore: ["cochange", t.file],
      rpc: { method: "cochange", params: { repo: t.repo, paths: [t.file] } },
      gitLabel: "git log -n 200 --full-diff --name-only -- FILE + counting",
      git: (o) => gitCochange(t.file, o),
    },
    {
      // What --changed computes once git status has named the files: the git status itself is not timed.
      name: `--changed: cochange of ${1 + (t.others?.length ?? 0)} files (git status not timed)`,
      lore: ["cochange", t.file, ...(t.others ?? [])],
      rpc: { method: "cochange", params: { repo: t.repo, paths: [t.file, ...(t.others ?? [])] } },
      gitLabel: "git log -n 200 --full-diff --name-only -- FILE, per file, + counting",
      git: async (o) => {
        let bytes = 0;
        for (const f of [t.file, ...(t.others ?? [])]) bytes += await gitCochange(f, o);
        return bytes;
      },
    },
    {
      name: "hotspots",
      lore: ["hotspots"],
      rpc: { method: "hotspots", params: { repo: t.repo } },
      gitLabel: "git log -n 500 --name-only + counting",
      git: gitHotspots,
    },
    {
      name: "contributors",
      lore: ["contributors"],
      rpc: { method: "contributors", params: { repo: t.repo } },
      gitLabel: "git ls-files | xargs -P2 -n1 git blame --porcelain + summing",
      git: gitContributors,
      heavy: true,
    },
    {
      name: "log -n 20",
      lore: ["log", "-n", "20"],
      rpc: { method: "log", params: { repo: t.repo, limit: 20 } },
      respelled: (i) => ({ repo: t.repo, limit: 20, paths: [respell(".", i)] }),
      gitLabel: "git log --numstat -M -n 20",
      git: async (o) => (await git(["log", "--numstat", "-M", "-n", "20"], o)).stdout.length,
    },
    {
      name: `log -n 20 ${dir}`,
      lore: ["log", "-n", "20", dir],
      rpc: { method: "log", params: { repo: t.repo, limit: 20, paths: [dir] } },
      respelled: (i) => ({ repo: t.repo, limit: 20, paths: [respell(dir, i)] }),
      gitLabel: `git log --numstat -M -n 20 -- ${dir}`,
      git: async (o) => (await git(["log", "--numstat", "-M", "-n", "20", "--", dir], o)).stdout.length,
    },
    {
      name: "show HEAD~1",
      lore: ["show", "HEAD~1"],
      rpc: { method: "show", params: { repo: t.repo, rev: "HEAD~1" } },
      // diffLines does nothing without a patch: the same work, another cache key.
      respelled: (i) => ({ repo: t.repo, rev: "HEAD~1", diffLines: 200 + i }),
      gitLabel: "git show --numstat HEAD~1",
      git: async (o) => (await git(["show", "--numstat", "-M", "HEAD~1"], o)).stdout.length,
    },
    {
      name: "show HEAD~1 --patch",
      lore: ["show", "HEAD~1", "--patch", "--diff-lines", "50000"],
      rpc: { method: "show", params: { repo: t.repo, rev: "HEAD~1", patch: true, diffLines: 50000 } },
      respelled: (i) => ({ repo: t.repo, rev: "HEAD~1", patch: true, diffLines: 50000 + i }),
      gitLabel: "git show HEAD~1",
      git: async (o) => (await git(["show", "-M", "HEAD~1"], o)).stdout.length,
    },
    {
      name: "compare HEAD~10",
      lore: ["compare", "HEAD~10"],
      rpc: { method: "compare", params: { repo: t.repo, base: "HEAD~10" } },
      respelled: (i) => ({ repo: t.repo, base: "HEAD~10", diffLines: 200 + i }),
      gitLabel: "git log HEAD~10..HEAD --numstat + git diff --numstat HEAD~10...HEAD",
      git: async (o) => (await git(["log", "--numstat", "-M", "HEAD~10..HEAD"], o)).stdout.length + (await git(["diff", "--numstat", "-M", "HEAD~10...HEAD"], o)).stdout.length,
    },
    {
      name: "owners",
      lore: ["owners"],
      rpc: { method: "owners", params: { repo: t.repo } },
      gitLabel: "git ls-files | xargs -P2 -n1 git blame --porcelain + summing",
      git: gitContributors,
      heavy: true,
    },
    {
      name: "status",
      lore: ["status"],
      rpc: { method: "status", params: { repo: t.repo } },
      gitLabel: "git status --porcelain=v2 --branch",
      git: async (o) => (await git(["status", "--porcelain=v2", "--branch"], o)).stdout.length,
    },
  ];
}

const SKIP_EXT = /\.(md|markdown|txt|json|lock|ya?ml|toml|ini|csv|svg|png|jpe?g|gif|ico)$/i;

/** The file an agent would most likely ask about: the most often changed source file at HEAD with 100+ lines. */
export async function pickTarget(repo: string, file?: string): Promise<Target> {
  const opts = { cwd: repo };
  let chosen = file;
  let rankedOthers: string[] = [];
  if (!chosen) {
    const tracked = new Set(text((await git(["ls-files", "-z"], opts)).stdout).split("\0").filter(Boolean));
    const counts = new Map<string, number>();
    const log = text((await git(["log", "-n", "5000", "--format=", "--name-only", "-z"], opts)).stdout);
    for (const f of log.split(/[\n\0]/)) if (f && tracked.has(f)) counts.set(f, (counts.get(f) ?? 0) + 1);
    const ranked = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([f]) => f);
    const source = ranked.filter((f) => !SKIP_EXT.test(f));
    rankedOthers = source;
    for (const f of [...source, ...ranked]) {
      if (lineCount(repo, f) >= 100) {
        chosen = f;
        break;
      }
    }
    chosen ??= source[0] ?? ranked[0];
    if (!chosen) throw new Error(`${repo} has no tracked files to ask about`);
  }
  const lines = lineCount(repo, chosen);
  // 21 lines in the middle: the range DESIGN's blame budget is stated for.
  const mid = Math.max(1, Math.floor(lines / 2) - 10);
  const others = file ? [] : rankedOthers.filter((f) => f !== chosen).slice(0, 2);
  return { repo, file: chosen, lines, range: [mid, Math.min(lines, mid + 20)], ...(others.length ? { others } : {}) };
}

function lineCount(repo: string, file: string): number {
  try {
    const data = readFileSync(join(repo, file));
    if (data.includes(0)) return 0;
    let n = 0;
    for (const c of data) if (c === 10) n++;
    return data.length > 0 && data[data.length - 1] !== 10 ? n + 1 : n;
  } catch {
    return 0;
  }
}
