/** What git log / git show / git diff say about commits and their files, in the shape lore's log answers take. */
import { parseRawNumstat } from "../../src/git/parse-diff.ts";
import { runGitBytes } from "./git-repo.ts";
import type { LogFile } from "../../src/queries/log.ts";

/** A file as git says it changed, in the shape lore answers with. */
export type TruthFile = LogFile;

export interface TruthCommit {
  sha: string;
  author: string;
  subject: string;
  merge?: true;
  additions: number;
  deletions: number;
  files: TruthFile[];
  filesTotal: number;
}

export function truthFiles(bytes: Uint8Array): TruthFile[] {
  return parseRawNumstat(bytes).map((d) => {
    const f: TruthFile = { path: d.path };
    if (d.additions === null) f.binary = true;
    else Object.assign(f, { additions: d.additions, deletions: d.deletions });
    if (d.status !== "M") f.status = d.status;
    if (d.oldPath) f.oldPath = d.oldPath;
    return f;
  });
}

/** `git log --raw --numstat -M [args] -- paths`, each commit with up to `maxFiles` files, sha cut to 12. */
export function gitLogTruth(dir: string, args: string[], paths: string[] = [], maxFiles = 10): TruthCommit[] {
  const out = runGitBytes(dir, ["-c", "core.quotepath=off", "log", "--use-mailmap", "-z", "--raw", "--numstat", "-M", "--format=%x1e%H%x00%P%x00%aN%x00%s%x00", ...args, "--", ...paths]);
  const text = out.toString("latin1");
  const commits: TruthCommit[] = [];
  for (const rec of text.split("\x1e").slice(1)) {
    const parts = rec.split("\0");
    const [sha, parents, author, subject] = parts.slice(0, 4).map((s) => Buffer.from(s, "latin1").toString("utf8"));
    const rest = Buffer.from(parts.slice(4).join("\0"), "latin1");
    const files = truthFiles(rest);
    const c: TruthCommit = { sha: sha!.slice(0, 12), author: author!, subject: subject!, additions: 0, deletions: 0, files: files.slice(0, maxFiles), filesTotal: files.length };
    for (const f of files) {
      c.additions += f.additions ?? 0;
      c.deletions += f.deletions ?? 0;
    }
    if (parents!.includes(" ")) c.merge = true;
    commits.push(c);
  }
  return commits;
}

/** lore's log commits without the fields git's truth does not carry (time). */
export function comparable(commits: { time?: string }[]): unknown[] {
  return commits.map(({ time: _t, ...rest }) => rest);
}
