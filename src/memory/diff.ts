/** What changed between two snapshot trees: files with +/- (git diff --raw --numstat -z) and the patch, cut. */
import { git } from "../git/run.ts";
import { fromLatin1 } from "../git/paths.ts";
import type { SnapshotStore } from "./store.ts";

export interface ChangedFile {
  path: string;
  additions?: number;
  deletions?: number;
  status?: string;
  oldPath?: string;
  binary?: true;
}

const DIFF = ["diff", "--no-ext-diff", "--no-textconv", "-M"];

/** Parses `git diff --raw --numstat -z`: raw records (":" … status NUL path [NUL path]) then numstat ones. */
export function parseRawNumstat(text: string): ChangedFile[] {
  const parts = text.split("\0");
  const byPath = new Map<string, ChangedFile>();
  const files: ChangedFile[] = [];
  let i = 0;
  while (i < parts.length) {
    const head = parts[i]!;
    if (head === "") {
      i++;
      continue;
    }
    if (head.startsWith(":")) {
      const status = head.split(" ")[4]!.replace(/\d+$/, "");
      const two = status === "R" || status === "C";
      const path = fromLatin1(parts[i + (two ? 2 : 1)]!);
      const file: ChangedFile = { path };
      if (status !== "M") file.status = status;
      if (two) file.oldPath = fromLatin1(parts[i + 1]!);
      files.push(file);
      byPath.set(path, file);
      i += two ? 3 : 2;
      continue;
    }
    const [add, del, name] = head.split("\t");
    let path: string;
    if (name === "") {
      path = fromLatin1(parts[i + 2]!);
      i += 3;
    } else {
      path = fromLatin1(name!);
      i += 1;
    }
    const file = byPath.get(path);
    if (!file) continue;
    if (add === "-") file.binary = true;
    else {
      file.additions = Number(add);
      file.deletions = Number(del);
    }
  }
  return files;
}

export async function changedFiles(store: SnapshotStore, from: string, to: string, paths: string[]): Promise<ChangedFile[]> {
  const out = await git([...DIFF, "--raw", "--numstat", "-z", from, to, "--", ...paths], { cwd: store.repo.root, env: store.env() });
  return parseRawNumstat(out.toString("latin1"));
}

/** The unified diff, cut at `maxLines` lines. */
export async function patchOf(store: SnapshotStore, from: string, to: string, paths: string[], maxLines: number): Promise<{ patch: string; truncated: boolean }> {
  const out = (await git([...DIFF, from, to, "--", ...paths], { cwd: store.repo.root, env: store.env() })).toString("utf8");
  const lines = out.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length <= maxLines) return { patch: out, truncated: false };
  return { patch: lines.slice(0, maxLines).join("\n") + "\n", truncated: true };
}
