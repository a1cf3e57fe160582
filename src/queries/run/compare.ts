/** How compare is answered: merge base and counts from git, the commits as log lists them, the files from one git diff. */
import { LoreError } from "../../errors.ts";
import { gitMaybe, gitText } from "../../git/run.ts";
import type { COMPARE_ARGS, CompareOutput } from "../compare.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { repoPaths } from "./log.ts";
import { logCommits } from "./log-commits.ts";
import { checkCount, commitOf, diffFiles, diffPatch, fileOut } from "./repo-diff.ts";
import { boundaryOf, historyStops, markBoundary } from "./history-stops.ts";

export async function run(ctx: QueryContext, input: Input<typeof COMPARE_ARGS>): Promise<CompareOutput> {
  checkCount("--diff-lines", input.diffLines);
  const base = await commitOf(ctx, input.base);
  const headRev = input.head ?? "HEAD";
  const head = await commitOf(ctx, headRev);
  const paths = repoPaths(ctx, input.paths);
  const skip = input.skip ?? 0;
  // Three git questions at once: where the branches part, how far each went, and the commits.
  const scope = await ctx.index.scope(head);
  const boundary = await boundaryOf(ctx);
  // In a shallow clone, each side's commits are listed, not counted: a boundary commit among them is where the counts stop.
  const [mergeBaseOut, counts, log] = await Promise.all([
    gitMaybe(["merge-base", base, head], ctx.index.git),
    gitText(["rev-list", "--left-right", ...(boundary.size ? [] : ["--count"]), `${base}...${head}`, "--"], ctx.index.git),
    logCommits(ctx, scope, { paths, limit: skip + checkCount("--limit", input.limit, 10_000), not: base }),
  ]);
  const sides = boundary.size ? counts.split("\n").filter(Boolean) : [];
  const stops = historyStops(boundary, boundary.size ? sides.map((l) => l.slice(1)) : []);
  const mergeBase = mergeBaseOut?.toString("utf8").trim();
  if (!mergeBase) {
    const shallow = historyStops(boundary);
    throw new LoreError(
      "BAD_REVISION",
      shallow
        ? `${input.base} and ${headRev} have no common history in this shallow clone: history stops at ${Object.keys(shallow.at).join(", ")}; get the rest (${shallow.get}) and ask again.`
        : `${input.base} and ${headRev} have no common history: there is no merge base to compare from.`,
    );
  }
  const [behind, ahead] = boundary.size ? [sides.filter((l) => l.startsWith("<")).length, sides.filter((l) => l.startsWith(">")).length] : counts.trim().split(/\s+/).map(Number);
  const { truncated: moreCommits } = log;
  const commits = await markBoundary(ctx, log.commits.slice(skip), false);
  const stopped = stops ? { historyStops: stops } : {};
  // Asked for the rest of the commits (skip): the files came with the first answer.
  if (skip > 0) return { repo: ctx.index.repo.root, base, head, mergeBase, ahead: ahead!, behind: behind!, commits, truncated: moreCommits, ...stopped };
  const [diff, patched] = await Promise.all([diffFiles(ctx, mergeBase, head, paths), input.patch ? diffPatch(ctx, mergeBase, head, paths, input.diffLines) : undefined]);
  const files = diff.map(fileOut);
  const out: CompareOutput = {
    repo: ctx.index.repo.root,
    base,
    head,
    mergeBase,
    ahead: ahead!,
    behind: behind!,
    commits,
    // All of them: the answer's pages hold 100 each, and go on independently of the commits (src/queries/pages.ts).
    files,
    filesTotal: files.length,
    truncated: moreCommits,
    ...stopped,
  };
  if (patched) {
    out.patch = patched.patch;
    out.truncated ||= patched.truncated;
  }
  return out;
}
