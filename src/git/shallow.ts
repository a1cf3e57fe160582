/** Where a shallow clone's history stops: the commits its `shallow` file lists whose objects name parents the clone lacks. */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { catBlobs } from "./cat-file.ts";
import type { GitOptions } from "./run.ts";
import type { Repo } from "./repo.ts";

/** A boundary commit's full id → its author and committer times (unix seconds); empty in a full clone. */
export type Boundary = ReadonlyMap<string, { time: number; committed: number }>;

const NONE: Boundary = new Map();

/** One per repository, kept while the shallow file's stamp holds (git fetch --deepen/--unshallow rewrites or removes it). */
const known = new Map<string, { stamp: string; boundary: Promise<Boundary> }>();

function stampOf(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
}

/** The ids the shallow file lists (git writes one full id a line). */
export function shallowList(repo: Repo): string[] {
  try {
    return readFileSync(join(repo.commonDir, "shallow"), "utf8").split("\n").filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  } catch {
    return [];
  }
}

/**
 * The clone's boundary. A listed commit whose object names no parent is a real root: history does
 * not stop there (git does not list one, but a hand-made shallow file may), so it is left out.
 */
export function historyBoundary(repo: Repo, opts: GitOptions): Promise<Boundary> {
  const path = join(repo.commonDir, "shallow");
  const stamp = stampOf(path);
  const kept = known.get(repo.commonDir);
  if (kept && kept.stamp === stamp) return kept.boundary;
  const boundary = stamp === "-" ? Promise.resolve(NONE) : read(shallowList(repo), opts);
  known.set(repo.commonDir, { stamp, boundary });
  // A failed read is not kept: the next answer asks again.
  boundary.catch(() => known.delete(repo.commonDir));
  return boundary;
}

async function read(shas: string[], opts: GitOptions): Promise<Boundary> {
  const out = new Map<string, { time: number; committed: number }>();
  await catBlobs(shas, opts, (sha, content) => {
    if (!content) return;
    const head = content.toString("utf8", 0, Math.max(0, content.indexOf("\n\n")));
    if (!/^parent [0-9a-f]+$/m.test(head)) return;
    const when = (who: string) => Number(new RegExp(`^${who} .* (\\d+) [+-]\\d{4}$`, "m").exec(head)?.[1] ?? 0);
    out.set(sha, { time: when("author"), committed: when("committer") });
  });
  return out;
}
