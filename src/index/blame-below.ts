/**
 * Blame below a shallow clone's boundary: git marks every line older than the clone as its
 * boundary commit's; where the index holds that commit's blame of the file (an index imported
 * from a whole history, exported at that commit), each such line takes the commit that really wrote it.
 * A full clone's imported index is used the same way: git blames only the commits since the import head.
 */
import type { BlameHunk, BlameResult } from "../git/records.ts";
import { gitMaybe } from "../git/run.ts";
import { IGNORE_REVS_FILE } from "./blame.ts";
import type { IndexContext } from "./context.ts";
import { lsTree } from "./tree.ts";

/** The commit an imported index's blames were made at (its export head); undefined when the index was built here. */
export function importHead(ix: IndexContext): string | undefined {
  return ix.store.meta("imported")?.split(" ")[0];
}

/** Import heads known to have no ignore-revs file, by index: the index's blames there ignored no commit. */
const plainHeads = new Map<string, boolean>();

/**
 * The import head of a full clone's imported index when its blames there ignored no commit (that commit
 * has no .git-blame-ignore-revs), so a blame that ignores none may go on from them; else undefined.
 */
export async function plainImportHead(ix: IndexContext): Promise<string | undefined> {
  const head = importHead(ix);
  if (!head) return undefined;
  const key = `${ix.store.path}\0${head}`;
  let plain = plainHeads.get(key);
  if (plain === undefined) {
    plain = (await gitMaybe(["cat-file", "-e", `${head}:${IGNORE_REVS_FILE}`], ix.git)) === null;
    plainHeads.set(key, plain);
  }
  return plain ? head : undefined;
}

/** True when lines are still on `below` as a boundary: the index did not hold their file's blame there (a full clone then asks git for all). */
export function leftAt(result: BlameResult, below: string): boolean {
  return result.commits[below]?.boundary === true && result.hunks.some((h) => h.sha === below);
}

/**
 * `result` with the lines git blamed on `below` (the import head, a boundary of this blame)
 * followed into the index's blame of their file at that commit. Lines whose file the index has
 * not blamed there stay as git gave them. The commits now named get their facts from the index.
 */
export async function throughBoundary(ix: IndexContext, result: BlameResult, below: string): Promise<BlameResult> {
  const at = result.hunks.filter((h) => h.sha === below && result.commits[h.sha]?.boundary);
  if (at.length === 0 || result.binary) return result;
  const origPaths = [...new Set(at.map((h) => h.origPath))];
  const blobs = new Map((await lsTree(ix, below, origPaths)).filter((e) => e.type === "blob").map((e) => [e.path, e.blob]));
  const hunks: BlameHunk[] = [];
  // A whole history's root commits, which git blame marks as boundaries too.
  const roots = new Set<string>();
  for (const h of result.hunks) {
    const blob = h.sha === below && result.commits[h.sha]?.boundary ? blobs.get(h.origPath) : undefined;
    const old = blob ? ix.store.blame.byContent(h.origPath, blob) : undefined;
    if (!old) {
      hunks.push(h);
      continue;
    }
    const last = h.origStart + (h.end - h.start);
    const found = ix.store.blame.hunks(old.id, h.origStart, last);
    // A blame that does not cover the lines (it cannot be the same file) leaves them as git gave them.
    if (found.length === 0 || found[0]!.start > h.origStart || found.at(-1)!.end < last) {
      hunks.push(h);
      continue;
    }
    for (const r of old.boundary) roots.add(r);
    for (const o of found) {
      const from = Math.max(o.start, h.origStart);
      const to = Math.min(o.end, last);
      hunks.push({ start: h.start + (from - h.origStart), end: h.start + (to - h.origStart), sha: o.sha, origPath: o.origPath, origStart: o.origStart + (from - o.start) });
    }
  }
  const named = new Set(hunks.map((h) => h.sha));
  const facts = ix.store.blame.commits([...named].filter((s) => !(s in result.commits)));
  const commits: BlameResult["commits"] = {};
  for (const sha of named) {
    const c = result.commits[sha] ?? facts.get(sha);
    if (c) commits[sha] = roots.has(sha) ? { ...c, boundary: true } : c;
  }
  return { ...result, hunks: joined(hunks), commits };
}

/** Neighbouring hunks of one commit whose lines follow on in one origin file, as one hunk (as git groups them). */
function joined(hunks: BlameHunk[]): BlameHunk[] {
  const out: BlameHunk[] = [];
  for (const h of hunks) {
    const prev = out.at(-1);
    if (prev && prev.sha === h.sha && prev.origPath === h.origPath && prev.end + 1 === h.start && prev.origStart + (prev.end - prev.start) + 1 === h.origStart) prev.end = h.end;
    else out.push({ ...h });
  }
  return out;
}
