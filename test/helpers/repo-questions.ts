/** The comparisons of log, show and compare with git, shared by the story repository, a generated history and express. */
import { expect } from "bun:test";
import { comparable, gitLogTruth, truthFiles } from "./git-log-truth.ts";
import { runGit, runGitBytes } from "./git-repo.ts";
import { ask } from "./lore.ts";
import { withGitProvenance } from "./provenance-truth.ts";

/** A committer date in the middle of the history, as git prints it (ISO 8601 strict). */
function middleDate(dir: string, skip: number): string {
  return runGit(dir, ["log", "--format=%cI", "-n", "1", `--skip=${skip}`]).trim();
}

/** log equals git log --numstat -M for each flag alone and for the combinations agents use. */
export async function expectLogLikeGit(dir: string, where: { folder: string; file: string; author: string; not: string }): Promise<void> {
  const total = Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim());
  const since = middleDate(dir, Math.floor(total / 3));
  const before = middleDate(dir, Math.floor(total / 2));
  const n = 60;
  const cases: [Record<string, unknown>, string[], string[]][] = [
    [{}, [], []],
    [{ paths: [where.folder] }, [], [where.folder]],
    [{ paths: [where.file] }, [], [where.file]],
    [{ paths: [where.folder, where.file] }, [], [where.folder, where.file]],
    [{ author: where.author }, ["-i", "-F", `--author=${where.author}`], []],
    [{ since }, [`--since=${since}`], []],
    [{ before }, [`--until=${before}`], []],
    [{ since, paths: [where.folder] }, [`--since=${since}`], [where.folder]],
    [{ not: where.not }, ["HEAD", "--not", where.not], []],
    [{ firstParent: true }, ["--first-parent"], []],
    [{ firstParent: true, paths: [where.folder] }, ["--first-parent"], [where.folder]],
    [{ noMerges: true }, ["--no-merges"], []],
    [{ noMerges: true, paths: [where.folder] }, ["--no-merges"], [where.folder]],
    [{ fullDiff: true, paths: [where.file] }, ["--full-diff"], [where.file]],
  ];
  for (const [input, args, paths] of cases) {
    const r = await ask("log", dir, { limit: n, ...input });
    const truth = withGitProvenance(dir, gitLogTruth(dir, ["-n", String(n + 1), ...args], paths));
    expect({ input, commits: comparable(r.commits) }).toEqual({ input, commits: truth.slice(0, n) });
    expect({ input, truncated: r.truncated }).toEqual({ input, truncated: truth.length > n });
  }
}

/** The files of a commit as git show --numstat -M prints them (a merge: against its first parent), up to 50. */
function showTruth(dir: string, sha: string, merge: boolean): { files: unknown[]; filesTotal: number } {
  const files = truthFiles(runGitBytes(dir, ["-c", "core.quotepath=off", "show", "-z", "--raw", "--numstat", "-M", "--format=", ...(merge ? ["--diff-merges=first-parent"] : []), sha]));
  return { files: files.slice(0, 50), filesTotal: files.length };
}

/** show equals git show for the given commits: facts, files with +/-, the patch of a path and of everything, cut. */
export async function expectShowLikeGit(dir: string, revs: string[]): Promise<void> {
  for (const rev of revs) {
    const sha = runGit(dir, ["rev-parse", rev]).trim();
    const parents = runGit(dir, ["log", "-1", "--format=%P", sha]).trim().split(" ").filter(Boolean);
    const merge = parents.length > 1;
    const r = await ask("show", dir, { rev: sha });
    expect({ rev, sha: r.sha, parents: r.parents, author: r.author, email: r.email, message: r.message }).toEqual({
      rev,
      sha,
      parents,
      author: runGit(dir, ["log", "-1", "--use-mailmap", "--format=%aN", sha]).trim(),
      email: runGit(dir, ["log", "-1", "--use-mailmap", "--format=%aE", sha]).trim(),
      message: runGit(dir, ["log", "-1", "--format=%B", sha]).replace(/\n+$/, ""),
    });
    expect({ rev, files: r.files, filesTotal: r.filesTotal }).toEqual({ rev, ...showTruth(dir, sha, merge) });
    expect(r.against).toBe(merge ? "first-parent" : undefined);
    const mergeArgs = merge ? ["--diff-merges=first-parent"] : [];
    const whole = await ask("show", dir, { rev: sha, patch: true, diffLines: 100000 });
    expect({ rev, patch: whole.patch }).toEqual({ rev, patch: runGit(dir, ["-c", "core.quotepath=off", "show", "--format=", "-M", ...mergeArgs, sha]) });
    const first = r.files[0]?.path;
    if (first === undefined) continue;
    const one = await ask("show", dir, { rev: sha, paths: [first], diffLines: 8 });
    const gitPatch = runGit(dir, ["-c", "core.quotepath=off", "show", "--format=", "-M", ...mergeArgs, sha, "--", first]).split("\n");
    if (gitPatch.at(-1) === "") gitPatch.pop();
    // truncated: the patch was cut, or the files go on past the first 50 (continue gives them).
    expect({ rev, patch: one.patch, truncated: one.truncated }).toEqual({ rev, patch: gitPatch.slice(0, 8).join("\n") + "\n", truncated: gitPatch.length > 8 || r.filesTotal > 50 });
  }
}

/** compare equals git: merge base, rev-list --left-right --count, git log BASE..HEAD, git diff --numstat -M BASE...HEAD. */
export async function expectCompareLikeGit(dir: string, base: string, head: string, paths: string[] = []): Promise<void> {
  const r = await ask("compare", dir, { base, head, paths, limit: 50 });
  const [behind, ahead] = runGit(dir, ["rev-list", "--left-right", "--count", `${base}...${head}`]).trim().split(/\s+/).map(Number);
  const files = truthFiles(runGitBytes(dir, ["-c", "core.quotepath=off", "diff", "-z", "--raw", "--numstat", "-M", `${base}...${head}`, "--", ...paths]));
  expect({ base, head, mergeBase: r.mergeBase, ahead: r.ahead, behind: r.behind }).toEqual({
    base,
    head,
    mergeBase: runGit(dir, ["merge-base", base, head]).trim(),
    ahead: ahead!,
    behind: behind!,
  });
  expect({ base, head, commits: comparable(r.commits) }).toEqual({ base, head, commits: withGitProvenance(dir, gitLogTruth(dir, ["-n", "50", head, "--not", base], paths)) });
  expect({ base, head, files: r.files, filesTotal: r.filesTotal }).toEqual({ base, head, files: files.slice(0, 100), filesTotal: files.length });
  const withPatch = await ask("compare", dir, { base, head, paths, limit: 1, patch: true, diffLines: 100000 });
  expect({ base, head, patch: withPatch.patch }).toEqual({ base, head, patch: runGit(dir, ["-c", "core.quotepath=off", "diff", "-M", `${base}...${head}`, "--", ...paths]) });
}
