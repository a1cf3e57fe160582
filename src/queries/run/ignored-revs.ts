/** The commits named in the repository's .git-blame-ignore-revs (reformatting, bulk renames): noise beyond blame too. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IGNORE_REVS_FILE } from "../../index/blame.ts";
import { fileStamp } from "../file-stamps.ts";
import type { QueryContext } from "../context.ts";

const read = new Map<string, { stamp: string; revs: string[] }>();

/** The object names the file lists (comments and blank lines skipped), lowercased; [] when there is no file. */
export function ignoredRevNames(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim().toLowerCase())
    .filter((l) => /^[0-9a-f]{4,64}$/.test(l));
}

/** The names in the work tree's file, read again when the file changes. */
function readNames(ctx: QueryContext): string[] {
  const file = join(ctx.index.repo.root, IGNORE_REVS_FILE);
  const stamp = fileStamp(file);
  let known = read.get(file);
  if (!known || known.stamp !== stamp) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {}
    read.set(file, (known = { stamp, revs: ignoredRevNames(text) }));
  }
  return known.revs;
}

/** Whether a commit (full id) is one the work tree's ignore-revs file names (a name may be abbreviated, as git takes it). */
export function ignoredRevs(ctx: QueryContext): (sha: string) => boolean {
  const revs = readNames(ctx);
  if (revs.length === 0) return () => false;
  const full = new Set(revs.filter((r) => r.length >= 40));
  const short = revs.filter((r) => r.length < 40);
  return (sha) => full.has(sha) || short.some((s) => sha.startsWith(s));
}

/** The ids of the indexed commits the ignore-revs file names (none with `all`: the caller asked for every commit). */
export function ignoredCommitIds(ctx: QueryContext, all = false): number[] {
  if (all) return [];
  const names = readNames(ctx);
  const history = ctx.index.store.history;
  return names.flatMap((n) => {
    const id = n.length >= 40 ? history.commitId(n) : ctx.index.store.provenance.commitIdByPrefix(n);
    return id === undefined ? [] : [id];
  });
}
