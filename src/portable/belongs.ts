/**
 * Whether an index file holds this repository's history: its head is a commit of the clone (or, on a
 * shallow clone, its history holds the clone's boundary commits or their parents), and the commits
 * it records where the clone has them are git's own (parents and times), sampled along its history.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LoreError } from "../errors.ts";
import { isShallow, type Repo } from "../git/repo.ts";
import { git } from "../git/run.ts";
import type { ForeignCommit, ForeignIndex } from "../store/foreign-index.ts";

/** Commits compared with git's, spread along the file's history (the head first). */
const SAMPLES = 32;

interface RawCommit {
  parents: string[];
  time: number;
  commitTime: number;
}

/** The commit objects git has for these ids (absent: a commit this clone lacks), one `git cat-file --batch`. */
async function rawCommits(repo: Repo, shas: string[]): Promise<Map<string, RawCommit>> {
  const out = new Map<string, RawCommit>();
  if (shas.length === 0) return out;
  const bytes = await git(["cat-file", "--batch"], { cwd: repo.root, input: shas.join("\n") + "\n" });
  let at = 0;
  while (at < bytes.length) {
    const eol = bytes.indexOf(10, at);
    if (eol < 0) break;
    const [sha, type, size] = bytes.subarray(at, eol).toString("latin1").split(" ");
    at = eol + 1;
    if (type === undefined || size === undefined) continue;
    const body = bytes.subarray(at, at + Number(size)).toString("utf8");
    at += Number(size) + 1;
    if (type !== "commit") continue;
    const head = body.slice(0, body.indexOf("\n\n") >>> 0);
    const parents = [...head.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]!);
    const time = Number(/^author .* (\d+) [+-]\d{4}$/m.exec(head)?.[1]);
    const commitTime = Number(/^committer .* (\d+) [+-]\d{4}$/m.exec(head)?.[1]);
    out.set(sha!, { parents, time, commitTime });
  }
  return out;
}

/** The commits a shallow clone's history stops at (git's `shallow` file). */
function boundary(repo: Repo): string[] {
  try {
    return readFileSync(join(repo.commonDir, "shallow"), "utf8").split("\n").filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  } catch {
    return [];
  }
}

function samplePlaces(count: number): number[] {
  if (count <= SAMPLES) return Array.from({ length: count }, (_, i) => i);
  return [...new Set(Array.from({ length: SAMPLES }, (_, i) => Math.round((i * (count - 1)) / (SAMPLES - 1))))];
}

/** A recorded commit that says something else than git's object for the same id (a shallow index's boundary has no parents: not a lie). */
function differs(mine: ForeignCommit, git: RawCommit): boolean {
  const parents = mine.parents.length > 0 && mine.parents.join(" ") !== git.parents.join(" ");
  return parents || mine.time !== git.time || mine.commitTime !== git.commitTime;
}

/** The commits of the file compared with git's, and git's objects for them (with a shallow clone's boundary), asked. */
export interface Asked {
  sample: ForeignCommit[];
  edge: string[];
  objects: Promise<Map<string, RawCommit>>;
}

/**
 * Reads the file's sample and asks git for those commits, without waiting for git: started before SQLite's
 * check of every page, which runs meanwhile; nothing is judged from it before that check has passed.
 */
export function askGit(repo: Repo, file: ForeignIndex): Asked {
  const sample = file.commitsAt(samplePlaces(file.reachCount()));
  const edge = isShallow(repo) ? boundary(repo) : [];
  const objects = rawCommits(repo, [...sample.map((c) => c.sha), ...edge]);
  // Judged only after the other checks: a failure of git before then is said, if at all, when awaited.
  objects.catch(() => {});
  return { sample, edge, objects };
}

/** Throws INDEX_FOREIGN when the file is another repository's history, BAD_INDEX_FILE when it misstates this one's. */
export async function checkBelongs(repo: Repo, file: ForeignIndex, head: string, asked: Asked = askGit(repo, file)): Promise<void> {
  const { sample, edge } = asked;
  if (sample[0]?.sha !== head) throw new LoreError("BAD_INDEX_FILE", `This index file's history does not start at the head its manifest names (${head.slice(0, 12)}); it cannot be trusted. Nothing was changed.`);
  const shallow = isShallow(repo);
  const objects = await asked.objects;
  if (!objects.has(head)) {
    // Only a shallow clone may lack the index's head: its history must then go on where the clone's stops.
    const parents = edge.flatMap((b) => objects.get(b)?.parents ?? []);
    const meets = shallow && [...edge, ...parents].some((sha) => file.hasCommit(sha));
    if (!meets)
      throw new LoreError(
        "INDEX_FOREIGN",
        shallow
          ? `This index (at ${head.slice(0, 12)}) does not meet this shallow clone's history: neither its head nor the commits where the clone stops are in it. It is another repository's, or older than the clone's oldest commit (deepen the clone with git fetch --deepen, or import a newer index). Nothing was changed.`
          : `This index is of another repository: its head ${head.slice(0, 12)} is not a commit of this one. Nothing was changed.`,
      );
  }
  for (const c of sample) {
    const real = objects.get(c.sha);
    if (real ? differs(c, real) : !shallow && objects.has(head))
      throw new LoreError("BAD_INDEX_FILE", `This index file's commit ${c.sha.slice(0, 12)} is not this repository's commit of that id (${real ? "other parents or times" : "git has no such commit"}); it cannot be trusted. Nothing was changed.`);
  }
}
