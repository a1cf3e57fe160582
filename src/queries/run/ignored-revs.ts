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

/** Whether a commit (full id) is one the work tree's ignore-revs file names (a name may be abbreviated, as git takes it). */
export function ignoredRevs(ctx: QueryContext): (sha: string) => boolean {
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
  const revs = known.revs;
  if (revs.length === 0) return () => false;
  const full = new Set(revs.filter((r) => r.length >= 40));
  const short = revs.filter((r) => r.length < 40);
  return (sha) => full.has(sha) || short.some((s) => sha.startsWith(s));
}
