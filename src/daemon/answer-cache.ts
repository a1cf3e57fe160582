/**
 * Answers at HEAD kept until the index moves: on the same index the same question has the
 * same answer, so a repeated warm question costs a map lookup instead of SQL. Answers are
 * kept as the JSON text the reply carries (never parsed again), so the budget is the memory
 * they take (as objects they took several times more: a soak saw the daemon grow 70% before).
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { eolStamp } from "../git/eol-stamp.ts";
import type { AnyQuery } from "../queries/define.ts";

const DISK_MARK = "disk:";
const roots = new Map<string, string>();

/** The work tree top above a folder (the nearest with .git), remembered. */
function workTreeTop(dir: string): string {
  let top = roots.get(dir);
  if (top === undefined) {
    top = dir;
    for (let d = dir; ; d = dirname(d)) {
      if (existsSync(join(d, ".git"))) {
        top = d;
        break;
      }
      if (dirname(d) === d) break;
    }
    if (roots.size > 1000) roots.clear();
    roots.set(dir, top);
  }
  return top;
}

/** The shared git dir of the work tree at `top` (.git, or where a linked worktree's .git file and its commondir say), remembered. */
function commonDirOf(top: string): string {
  let dir = commonDirs.get(top);
  if (dir === undefined) {
    dir = join(top, ".git");
    try {
      if (!lstatSync(dir).isDirectory()) {
        const gitDir = resolve(top, /^gitdir: (.*)$/m.exec(readFileSync(dir, "utf8"))![1]!.trim());
        dir = existsSync(join(gitDir, "commondir")) ? resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()) : gitDir;
      }
    } catch {
      // No readable .git: the stamp then names files that are not there, and the question says why.
    }
    if (commonDirs.size > 1000) commonDirs.clear();
    commonDirs.set(top, dir);
  }
  return dir;
}
const commonDirs = new Map<string, string>();

/**
 * The disk file's stamp (inode, size, mtime, ctime, mode) at the question's path, relative ones from
 * the work tree top, and the stamps of the files that decide its eol conversion: a CRLF file is
 * clean or not as .gitattributes and core.autocrlf say, without the file changing.
 */
export function diskStamp(input: Record<string, unknown>): string {
  const path = typeof input.path === "string" ? input.path : "";
  const top = workTreeTop(isAbsolute(path) ? dirname(path) : typeof input.repo === "string" ? input.repo : "/");
  const full = isAbsolute(path) ? path : join(top, path);
  const eol = eolStamp(commonDirOf(top), top, relative(top, full));
  try {
    const st = lstatSync(full);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}|${eol}`;
  } catch {
    return `none|${eol}`;
  }
}

/** What one repository's cache may hold, counted as JSON text: memory stays flat however many questions come. */
const BUDGET_BYTES = 8 * 1024 * 1024;
/** Big answers (contributors of a whole monorepo) are cheap to rebuild compared to the memory they hold. */
const MAX_BYTES = 256 * 1024;

export class AnswerCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;
  /** Bumped whenever the index may have changed; an answer computed across a bump is not kept. */
  generation = 0;

  /**
   * The key of a question whose answer depends only on the index: none for `until`/`since`
   * (refs and clocks move on their own), for `changed` or a question not cacheable (the work
   * tree moves without a commit: review) or for status.
   */
  static keyOf(def: AnyQuery, input: Record<string, unknown>): string | undefined {
    if (def.needsIndex === false || def.cacheable === false || input.until !== undefined || input.since !== undefined || input.changed === true) return undefined;
    // About the file on disk: kept only while the file keeps its stamp (an edit is a new key), and only when clean (see set).
    const disk = def.readsDisk?.(input) ? `\0${DISK_MARK}${diskStamp(input)}` : "";
    return `${def.name}\0${JSON.stringify(input)}${disk}`;
  }

  /** The answer's JSON text. */
  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Most recently used last: eviction takes the oldest first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, generation: number, text: string): void {
    if (generation !== this.generation || this.entries.has(key)) return;
    // A file that differs from HEAD's is answered from what the staging area and the file say: never kept.
    if (key.includes(DISK_MARK) && text.includes('"worktree":true')) return;
    if (text.length > MAX_BYTES) return;
    while (this.bytes + text.length > BUDGET_BYTES && this.entries.size > 0) {
      const [oldest, old] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
    this.entries.set(key, text);
    this.bytes += text.length;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }
}
