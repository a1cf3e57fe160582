/** What a change may have missed: cochange's ranking over all the changed files at once, the change itself left out. */
import type { ChangedFile } from "../../git/parse-diff-hunks.ts";
import type { QueryContext } from "../context.ts";
import { PER_FILE } from "../cochange.ts";
import { run as cochange } from "./cochange.ts";
import { oldName } from "./review-rewrites.ts";

export interface Missing {
  path: string;
  confidence: number;
  with: string[];
  /** How many changed files it goes with, when more than `with` names. */
  withTotal?: number;
}

/** Changed files `with` names at most: a sweeping change would repeat most of its list in every row. */
const MAX_WITH = 10;

/** Changed files asked about at most: each costs a read of its window, and a 5,000-file change says little more than its first hundred. */
const MAX_INPUTS = 100;

/**
 * `oldSide` is the commit the candidates must exist at (HEAD, or the merge base). Inputs are the
 * changed files that existed there, by their old names; `with` names them by their new ones.
 */
export async function missingOf(ctx: QueryContext, oldSide: string | undefined, files: ChangedFile[], limit: number): Promise<Missing[]> {
  const history = ctx.index.store.history;
  const changed = new Set<string>();
  for (const f of files) {
    changed.add(f.path);
    changed.add(oldName(f));
  }
  const newName = new Map<string, string>();
  for (const f of files) {
    if (f.status === "A" || f.status === "C" || newName.size >= MAX_INPUTS) continue;
    if (history.pathId(oldName(f)) !== undefined) newName.set(oldName(f), f.path);
  }
  if (newName.size === 0) return [];
  const paths = [...newName.keys()];
  // cochange leaves out only its inputs: ask for as many more as there are other changed files.
  const r = await cochange(ctx, {
    paths,
    changed: false,
    limit: limit + changed.size,
    commits: String(PER_FILE),
    since: undefined,
    maxFiles: 50,
    repo: undefined,
    until: oldSide,
  });
  return r.results
    .filter((x) => !changed.has(x.path))
    .slice(0, limit)
    .map((x) => {
      const names = (x.with ?? paths).map((p) => newName.get(p) ?? p);
      return { path: x.path, confidence: x.confidence, with: names.slice(0, MAX_WITH), ...(names.length > MAX_WITH ? { withTotal: names.length } : {}) };
    });
}
