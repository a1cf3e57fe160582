/** Compares lore's answers about the file on disk with `git blame -- PATH` (the work tree), line by line, and proves .git unwritten. */
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitBlameWorkTree } from "./git-truth.ts";
import { runGit } from "./git-repo.ts";
import { ask } from "./lore.ts";

/** lore's hunks as one owner per line: sha null for a line not committed. */
export function diskLines(hunks: any[], path: string): { sha: string | null; origPath: string; origLine: number | undefined }[] {
  const out: { sha: string | null; origPath: string; origLine: number | undefined }[] = [];
  for (const [start, end, sha, origPath, origStart] of hunks)
    for (let l = start; l <= end; l++) {
      expect(l).toBe(out.length + hunks[0][0]);
      out.push({ sha, origPath: sha === null ? path : (origPath ?? path), origLine: origStart === undefined ? undefined : origStart + (l - start) });
    }
  return out;
}

/** git's owners of the lines on disk, as lore says them (origLine only for lines from another file). */
export function gitDiskLines(dir: string, path: string, extra: string[] = []): Owner[] {
  // git blame of a big file in a long history takes seconds: asked once per state of the file and the staging area.
  let state = `${dir}\0${path}\0${extra.join(" ")}\0`;
  try {
    state += createHash("sha1").update(readFileSync(join(dir, path))).digest("hex") + lstatSync(join(dir, ".git", "index")).mtimeMs;
    // What changes how git reads the file (eol attributes, core.autocrlf) changes git's answer too.
    for (const f of [join(dir, ".git", "config"), join(dir, ".git", "info", "attributes")]) state += ":" + (lstatSync(f, { throwIfNoEntry: false })?.mtimeMs ?? "-");
  } catch {
    state = "";
  }
  const hit = state ? truthCache.get(state) : undefined;
  if (hit) return hit;
  const owners = gitBlameWorkTree(dir, path, extra).map((o) => ({ sha: o.sha, origPath: o.origPath, origLine: o.sha !== null && o.origPath !== path ? o.origLine : undefined }));
  if (state) truthCache.set(state, owners);
  return owners;
}

type Owner = { sha: string | null; origPath: string; origLine: number | undefined };
const truthCache = new Map<string, Owner[]>();

/** A fingerprint of .git alone (every file by content and mode). */
export function gitDirHash(dir: string): string {
  const h = createHash("sha256");
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const p = `${rel}/${name}`;
      const st = lstatSync(join(dir, p));
      h.update(`${p}\0${st.mode}\0${st.mtimeMs}\0`);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(readFileSync(join(dir, p)));
    }
  };
  walk(".git");
  return h.digest("hex");
}

/** Asks lore's blame of the whole file on disk and checks every line against git blame of the work tree; returns the answer. */
export async function expectBlameLikeGit(dir: string, path: string, input: Record<string, unknown> = {}, gitExtra: string[] = []): Promise<any> {
  const before = gitDirHash(dir);
  const r = await ask("blame", dir, { path, ...input });
  expect(gitDirHash(dir)).toBe(before);
  const truth = gitDiskLines(dir, path, gitExtra);
  const a = (input.startLine as number | undefined) ?? 1;
  const b = (input.endLine as number | undefined) ?? truth.length;
  expect(r.range).toEqual([a, b]);
  expect({ path, lines: r.lines }).toEqual({ path, lines: truth.length });
  const mine = diskLines(r.hunks, path);
  expect(mine.length).toBe(b - a + 1);
  mine.forEach((l, i) => expect({ path, line: a + i, ...l }).toEqual({ path, line: a + i, ...truth[a - 1 + i]! }));
  for (const l of mine) if (l.sha !== null) expect(r.commits[l.sha]).toBeDefined();
  expect(Object.keys(r.commits).sort()).toEqual([...new Set(mine.flatMap((l) => (l.sha ? [l.sha] : [])))].sort());
  return r;
}

/** Ranges of consecutive line numbers. */
function ranges(nums: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of nums) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 === n) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** Asks lore's intent of on-disk lines a..b and checks each commit's lines and the uncommitted ones against git blame of the work tree. */
export async function expectIntentLikeGit(dir: string, path: string, a: number, b: number): Promise<any> {
  const before = gitDirHash(dir);
  const r = await ask("intent", dir, { path, startLine: a, endLine: b });
  expect(gitDirHash(dir)).toBe(before);
  const truth = gitDiskLines(dir, path).slice(a - 1, b);
  const bySha = new Map<string | null, number[]>();
  truth.forEach((o, i) => bySha.set(o.sha, [...(bySha.get(o.sha) ?? []), a + i]));
  expect(r.range).toEqual([a, b]);
  const mine = Object.fromEntries(r.commits.map((c: any) => [c.sha, c.lines]));
  const want = Object.fromEntries([...bySha].filter(([s]) => s !== null).map(([s, ls]) => [s, ranges(ls)]));
  expect({ path, commits: mine }).toEqual({ path, commits: want });
  expect({ path, uncommitted: r.uncommitted }).toEqual({ path, uncommitted: bySha.has(null) ? ranges(bySha.get(null)!) : undefined });
  return r;
}

/** HEAD's line of each on-disk line (null: not committed), from git diff -U0 HEAD -- PATH as a person would read it. */
export function headLinesOf(dir: string, path: string, diskLines: number): (number | null)[] {
  const out = runGit(dir, ["-c", "diff.autoRefreshIndex=false", "diff", "-U0", "HEAD", "--", path]);
  const map: (number | null)[] = [];
  let disk = 1;
  let head = 1;
  for (const m of out.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [os, oc, ns, nc] = [Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    const firstNew = nc === 0 ? ns + 1 : ns;
    while (disk < firstNew) map[disk++] = head++;
    for (let i = 0; i < nc; i++) map[disk++] = null;
    head = (oc === 0 ? os + 1 : os) + oc;
  }
  while (disk <= diskLines) map[disk++] = head++;
  return map;
}

/** What git log -L A,B:PATH prints at HEAD: each commit's 12-hex sha. */
export function gitLineLogShas(dir: string, a: number, b: number, path: string): string[] {
  return runGit(dir, ["log", `-L${a},${b}:${path}`, "--format=%x1e%H", "--no-patch", "HEAD"]).split("\x1e").slice(1).map((r) => r.trim().slice(0, 12));
}

/** Asks lore's history -L A,B of on-disk lines and checks headRange against git's diff and the commits against git log -L of it. */
export async function expectLineHistoryLikeGit(dir: string, path: string, a: number, b: number): Promise<any> {
  const before = gitDirHash(dir);
  const r = await ask("history", dir, { path, lines: `${a},${b}`, limit: 1000 });
  expect(gitDirHash(dir)).toBe(before);
  const total = gitDiskLines(dir, path).length;
  const heads = headLinesOf(dir, path, total).slice(a, b + 1);
  const committed = heads.filter((h): h is number => h !== null);
  expect(r.range).toEqual([a, b]);
  expect(r.worktree).toBe(true);
  // Lines not in HEAD's version (git diff HEAD's + lines) are the uncommitted ones.
  const notInHead = ranges(heads.flatMap((h, i) => (h === null ? [a + i] : [])));
  expect({ path, uncommitted: r.uncommitted }).toEqual({ path, uncommitted: notInHead.length ? notInHead : undefined });
  if (committed.length === 0) {
    expect(r.commits).toEqual([]);
    expect(r.uncommitted).toEqual([[a, b]]);
    return r;
  }
  const headRange = [Math.min(...committed), Math.max(...committed)];
  expect({ path, headRange: r.headRange }).toEqual({ path, headRange });
  expect(r.commits.map((c: any) => c.sha)).toEqual(gitLineLogShas(dir, headRange[0]!, headRange[1]!, path));
  return r;
}
