/**
 * The stamp of the file on disk a question reads: when it changes, so may the answer (an edit is
 * a new state, as a commit is). The daemon's answer cache and a deadline's continue token both use it.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { eolStamp } from "../git/eol-stamp.ts";

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
