/** What changed between two snapshot trees: files with +/- (git diff --raw --numstat -z) and the patch, cut. */
import { git } from "../git/run.ts";
import { parseRawNumstat } from "../git/parse-diff.ts";
import type { LogFile } from "../queries/log.ts";
import { cutPatch, fileOut } from "../queries/run/repo-diff.ts";
import type { SnapshotStore } from "./store.ts";

/** A file the work tree changed: the shape log, show and compare give a commit's files. */
export type ChangedFile = LogFile;

const DIFF = ["diff", "--no-ext-diff", "--no-textconv", "-M"];

export async function changedFiles(store: SnapshotStore, from: string, to: string, paths: string[]): Promise<ChangedFile[]> {
  const out = await git([...DIFF, "--raw", "--numstat", "-z", from, to, "--", ...paths], { cwd: store.repo.root, env: store.env() });
  return parseRawNumstat(out).map(fileOut);
}

/** The unified diff, cut at `maxLines` lines. */
export async function patchOf(store: SnapshotStore, from: string, to: string, paths: string[], maxLines: number): Promise<{ patch: string; truncated: boolean }> {
  const out = (await git([...DIFF, from, to, "--", ...paths], { cwd: store.repo.root, env: store.env() })).toString("utf8");
  return cutPatch(out, maxLines);
}
