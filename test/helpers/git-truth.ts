/** What git itself says, computed straight from git's output for tests to compare lore against. */
import { runGit, runGitBytes } from "./git-repo.ts";

export interface LineOwner {
  sha: string;
  origPath: string;
  origLine: number;
  author: string;
  email: string;
}

/** Undoes git's C quoting of a name ("a\\tb"), octal escapes included. */
export function unquote(s: string): string {
  if (!s.startsWith('"')) return s;
  const bytes: number[] = [];
  const body = Buffer.from(s.slice(1, -1), "utf8");
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== 92) {
      bytes.push(body[i]!);
      continue;
    }
    const c = String.fromCharCode(body[++i]!);
    if (c in simple) bytes.push(simple[c]!);
    else {
      bytes.push(parseInt(body.subarray(i, i + 3).toString(), 8));
      i += 2;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A commit id as lore's lists carry it (12 hex). */
export function short(sha: string): string {
  return sha.slice(0, 12);
}

/** Per-line owners from `git blame --line-porcelain` (index 0 = line 1), sha in lore's 12-hex form. */
export function gitBlame(dir: string, rev: string, path: string, extra: string[] = []): LineOwner[] {
  const out = runGitBytes(dir, ["-c", "core.quotepath=off", "blame", "--line-porcelain", ...extra, rev, "--", path]).toString("utf8");
  const owners: LineOwner[] = [];
  let cur: Partial<LineOwner> = {};
  for (const line of out.split("\n")) {
    if (line.startsWith("\t")) {
      owners.push(cur as LineOwner);
      cur = {};
    } else if (/^[0-9a-f]{40} \d+ \d+/.test(line)) {
      const [sha, orig] = line.split(" ");
      cur = { sha: short(sha!), origLine: Number(orig) };
    } else if (line.startsWith("author ")) cur.author = line.slice(7);
    else if (line.startsWith("author-mail ")) cur.email = line.slice(12).replace(/^<|>$/g, "");
    else if (line.startsWith("filename ")) cur.origPath = unquote(line.slice(9));
  }
  return owners;
}

type Hunk = [number, number, string] | [number, number, string, string, number];

/**
 * Expands lore's hunks ([start, end, sha] or [start, end, sha, origPath, origStart]) into
 * per-line owners: origPath is `path` and origLine undefined where the lines came from the file itself.
 */
export function hunksToLines(hunks: Hunk[], path?: string): { line: number; sha: string; origPath: string | undefined; origLine: number | undefined }[] {
  const out: { line: number; sha: string; origPath: string | undefined; origLine: number | undefined }[] = [];
  for (const [start, end, sha, origPath, origStart] of hunks)
    for (let l = start; l <= end; l++) out.push({ line: l, sha, origPath: origPath ?? path, origLine: origStart === undefined ? undefined : origStart + (l - start) });
  return out;
}

/** git's owner of a line as lore says it: the original line only when it came from another file. */
export function asLore(o: LineOwner, path: string): { sha: string; origPath: string; origLine: number | undefined } {
  return { sha: o.sha, origPath: o.origPath, origLine: o.origPath === path ? undefined : o.origLine };
}

export interface LogEntry {
  sha: string;
  status: string;
  path: string;
  oldPath?: string;
  additions: number | null;
  deletions: number | null;
}

/**
 * `git log --follow` (or plain) for one file: sha (12 hex), status and name per commit, with numstat;
 * one git call, --raw and --numstat together (each commit's first raw entry and first count).
 */
export function gitLogFile(dir: string, rev: string, path: string, follow = true, n?: number): LogEntry[] {
  const args = ["-c", "core.quotepath=off", "log", ...(follow ? ["--follow"] : []), ...(n ? ["-n", String(n)] : []), "-z", "--raw", "--numstat", "--format=%x1e%H", rev, "--", path];
  const out: LogEntry[] = [];
  for (const rec of runGitBytes(dir, args).toString("utf8").split("\x1e").filter(Boolean)) {
    const tokens = rec.split("\0").map((t) => t.replace(/^\n/, ""));
    const e: LogEntry = { sha: short(tokens[0]!.trim()), status: "", path, additions: null, deletions: null };
    let raw = false;
    let counted = false;
    for (let i = 1; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.startsWith(":")) {
        // ":mode mode sha sha STATUS", then the name, or the old and the new name of a rename or copy.
        const status = t.split(" ").at(-1)!;
        const two = status.startsWith("R") || status.startsWith("C");
        if (!raw) {
          e.status = status[0]!;
          if (two) [e.oldPath, e.path] = [tokens[i + 1], tokens[i + 2]!];
          else e.path = tokens[i + 1]!;
          raw = true;
        }
        i += two ? 2 : 1;
        continue;
      }
      const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(t);
      if (!m) continue;
      if (!counted) [e.additions, e.deletions, counted] = [m[1] === "-" ? null : Number(m[1]), m[2] === "-" ? null : Number(m[2]), true];
      // A rename's counts name the old and the new file after an empty name.
      if (m[3] === "") i += 2;
    }
    if (e.oldPath === undefined) delete e.oldPath;
    out.push(e);
  }
  return out;
}

/** The files each commit touched, as `git log --name-only` lists them (merges: none), newest first. */
export function gitCommitFiles(dir: string, rev: string, n?: number): { sha: string; files: string[] }[] {
  const out = runGitBytes(dir, ["-c", "core.quotepath=off", "log", "--name-only", "-z", ...(n ? ["-n", String(n)] : []), "--format=%x1e%H", rev]).toString("utf8");
  return out
    .split("\x1e")
    .filter(Boolean)
    .map((rec) => {
      const [head, ...rest] = rec.split("\n");
      const files = rest.join("\n").split("\0").map((f) => f.replace(/^\n/, "")).filter(Boolean);
      return { sha: head!.replace(/\0$/, ""), files };
    });
}

/** Paths of the files in the tree at `rev`. */
export function gitFiles(dir: string, rev = "HEAD"): string[] {
  return runGitBytes(dir, ["-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--name-only", rev]).toString("utf8").split("\0").filter(Boolean);
}

/**
 * Co-change of `paths` computed from git log --name-only, the way DESIGN.md defines it: the newest
 * `perFile` commits (of at most maxFiles files) that touched each path; per other file, the commits
 * shared (`counts`), Σ 2^(−i/50)/√(files−1) over them (`scores`, i = the commit's rank among the
 * input's), and the commits touching it down to the oldest one counted (`totals`). A caller asking
 * about many paths passes `history`, gitCommitFiles(dir, rev) read once, instead of a git log each.
 */
export function gitCochange(dir: string, rev: string, paths: string | string[], perFile: number | undefined, maxFiles: number, history = gitCommitFiles(dir, rev)) {
  const inputs = typeof paths === "string" ? [paths] : paths;
  const commits = history.filter((c) => c.files.length <= maxFiles);
  const rec = new Map<number, number>();
  for (const p of inputs) {
    let i = 0;
    commits.forEach((c, k) => {
      if (!c.files.includes(p) || (perFile !== undefined && i >= perFile)) return;
      rec.set(k, (rec.get(k) ?? 0) + 2 ** (-i / 50));
      i++;
    });
  }
  const oldest = Math.max(-1, ...rec.keys());
  const counts = new Map<string, number>();
  const scores = new Map<string, number>();
  const totals = new Map<string, number>();
  commits.slice(0, oldest + 1).forEach((c, k) => {
    for (const f of c.files) totals.set(f, (totals.get(f) ?? 0) + 1);
    if (!rec.has(k)) return;
    for (const f of c.files) {
      if (inputs.includes(f)) continue;
      counts.set(f, (counts.get(f) ?? 0) + 1);
      scores.set(f, (scores.get(f) ?? 0) + rec.get(k)! / Math.sqrt(c.files.length - 1));
    }
  });
  return { commits: rec.size, counts, totals, scores };
}

export function gitHead(dir: string): string {
  return runGit(dir, ["rev-parse", "HEAD"]).trim();
}

/** lore's history commits with what they leave out said again (status M, path = the asked path): comparable with gitLogFile. */
export function historyAsLog(r: { path: string; commits: any[] }): LogEntry[] {
  return r.commits.map((c) => ({ sha: c.sha, status: c.status ?? "M", path: c.path ?? r.path, oldPath: c.oldPath, additions: c.additions, deletions: c.deletions }));
}

/** Per-line owners from `git blame --line-porcelain -- PATH` with no revision: the file on disk; sha null where git says "Not Committed Yet". */
export function gitBlameWorkTree(dir: string, path: string, extra: string[] = []): (LineOwner | { sha: null; origPath: string; origLine: number })[] {
  const out = runGitBytes(dir, ["-c", "core.quotepath=off", "blame", "--line-porcelain", ...extra, "--", path]).toString("utf8");
  const owners: (LineOwner | { sha: null; origPath: string; origLine: number })[] = [];
  let cur: any = {};
  for (const line of out.split("\n")) {
    if (line.startsWith("\t")) {
      owners.push(cur);
      cur = {};
    } else if (/^[0-9a-f]{40} \d+ \d+/.test(line)) {
      const [sha, orig] = line.split(" ");
      cur = { sha: /^0+$/.test(sha!) ? null : short(sha!), origLine: Number(orig) };
    } else if (line.startsWith("author ")) cur.author = line.slice(7);
    else if (line.startsWith("filename ")) cur.origPath = unquote(line.slice(9));
  }
  return owners;
}
