/**
 * What the task benchmark draws its tasks from, read from git once per repository: the text
 * files at HEAD with their length and how often they changed, folders, commits, merges of
 * branches, words of commit messages; and a seeded random source, so a run draws the same tasks.
 */

/** Runs git (or a shell pipeline) in the repository; the output as text. Throws on failure. */
export function sh(repo: string, cmd: string): string {
  const r = Bun.spawnSync(["sh", "-c", cmd], { cwd: repo, env: { ...process.env, LC_ALL: "C", GIT_PAGER: "cat", PAGER: "cat" }, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd}: exit ${r.exitCode}: ${r.stderr.toString().slice(0, 300)}`);
  return r.stdout.toString();
}

export function gitLines(repo: string, args: string[]): string[] {
  const r = Bun.spawnSync(["git", "-c", "core.quotepath=off", ...args], { cwd: repo, env: { ...process.env, LC_ALL: "C" }, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString().slice(0, 300)}`);
  return r.stdout.toString().split("\n").filter(Boolean);
}

/** A small, seeded generator (mulberry32): the same seed draws the same tasks. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FileFacts {
  path: string;
  lines: number;
  /** Commits of HEAD's history that changed it (git log --name-only, no renames followed). */
  commits: number;
}

export interface RepoFacts {
  name: string;
  dir: string;
  files: FileFacts[];
  /** Folders at HEAD (with at least 3 files) and how many files and commits each has. */
  folders: { path: string; files: number; commits: number }[];
  /** Non-merge commits of HEAD's history, newest first. */
  commits: string[];
  /** Merges whose second parent brought 2 to 40 commits: [merge, first parent, second parent]. */
  merges: [string, string, string][];
  /** Words of commit subjects (5+ letters) and how many subjects hold each. */
  words: Map<string, number>;
  rand: () => number;
}

/** Picks one of `items` (undefined when there are none). */
export function pick<T>(f: RepoFacts, items: readonly T[]): T | undefined {
  return items.length ? items[Math.floor(f.rand() * items.length)] : undefined;
}

export function readRepo(name: string, dir: string, seed: number): RepoFacts {
  const counts = new Map<string, number>();
  for (const line of gitLines(dir, ["log", "--format=", "--name-only", "--no-renames", "HEAD"])) counts.set(line, (counts.get(line) ?? 0) + 1);
  // Text files: those git counts lines of (numstat of the empty tree against HEAD: binary files say "-").
  const files: FileFacts[] = [];
  for (const line of gitLines(dir, ["diff", "--numstat", "--no-renames", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "HEAD"])) {
    const [add, , ...rest] = line.split("\t");
    const path = rest.join("\t");
    if (add === "-") continue;
    files.push({ path, lines: Number(add), commits: counts.get(path) ?? 0 });
  }
  const byFolder = new Map<string, { files: number; commits: number }>();
  for (const f of files) {
    for (let i = f.path.indexOf("/"); i > 0; i = f.path.indexOf("/", i + 1)) {
      const d = f.path.slice(0, i);
      const e = byFolder.get(d) ?? { files: 0, commits: 0 };
      e.files++;
      byFolder.set(d, e);
    }
  }
  for (const [d, e] of byFolder) e.commits = gitLines(dir, ["rev-list", "--count", "--no-merges", "HEAD", "--", d]).map(Number)[0] ?? 0;
  const folders = [...byFolder].filter(([, e]) => e.files >= 3).map(([path, e]) => ({ path, ...e }));
  const commits = gitLines(dir, ["rev-list", "--no-merges", "HEAD"]);
  const merges: [string, string, string][] = [];
  for (const line of gitLines(dir, ["rev-list", "--merges", "--parents", "HEAD"])) {
    const [m, p1, p2, more] = line.split(" ");
    if (!p2 || more) continue;
    merges.push([m!, p1!, p2!]);
  }
  const words = new Map<string, number>();
  for (const s of gitLines(dir, ["log", "--format=%s", "--no-merges", "HEAD"]))
    for (const w of new Set(s.toLowerCase().match(/\b[a-z]{5,}\b/g) ?? [])) words.set(w, (words.get(w) ?? 0) + 1);
  return { name, dir, files, folders, commits, merges, words, rand: seeded(seed) };
}
