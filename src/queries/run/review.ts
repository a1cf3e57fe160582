/** How review is answered: the change from one git diff, its deleted lines against the old side's cached blame, cochange over it, the authors. */
import { codeownersAt, codeownersFields, declaredFor } from "./codeowners.ts";
import type { Codeowners } from "../../git/parse-codeowners.ts";
import { familyFor, tupleWithProvenance } from "./provenance.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { REVIEW_ARGS, ReviewFile, ReviewOutput } from "../review.ts";
import { iso, repoPath, shortSha } from "./common.ts";
import { fileOut } from "./repo-diff.ts";
import { readChange, untrackedCounts } from "./review-change.ts";
import { messagesOf, saysFix } from "./review-fixes.ts";
import { missingOf } from "./review-missing.ts";
import { identities } from "./identity.ts";
import { peopleOf } from "./review-people.ts";
import { rewritesOf } from "./review-rewrites.ts";
import { userEmail } from "./review-user.ts";
import { boundaryCommit, blameBoundaryOf, historyStops } from "./history-stops.ts";

/** The files whose replaced lines are read (a page of files: the rest are listed with their counts, on the pages after). */
const MAX_FILES = 50;
/** By design, not truncation: the few an agent can act on. */
const MAX_MISSING = 5;
const MAX_PEOPLE = 3;

const STATE_NOTE = {
  merge: "The repository is mid-merge: this is the work tree on disk against HEAD, conflict markers included.",
  rebase: "The repository is mid-rebase: this is the work tree on disk against the commit being rebased onto (HEAD), conflict markers included.",
  "cherry-pick": "The repository is mid-cherry-pick: this is the work tree on disk against HEAD, conflict markers included.",
  revert: "The repository is mid-revert: this is the work tree on disk against HEAD, conflict markers included.",
} as const;

export async function run(ctx: QueryContext, input: Input<typeof REVIEW_ARGS>): Promise<ReviewOutput> {
  const head = (await ctx.index.scope()).commit;
  const paths = [...new Set((input.paths ?? []).map((p) => repoPath(ctx, p)))];
  const narrowed = paths.includes("") ? [] : paths;
  const [change, user] = await Promise.all([
    readChange(ctx, head, { base: input.base, staged: input.staged === true, paths: narrowed }),
    userEmail(ctx),
  ]);
  const all = change.files;
  const listed = all.slice(0, MAX_FILES);
  const atOld = change.oldSide === head ? undefined : change.oldSide;
  const [rewrites, missing] = await Promise.all([rewritesOf(ctx, change.oldSide, listed), missingOf(ctx, atOld, all, MAX_MISSING, input.all)]);
  // Lines git pins on a shallow clone's boundary commit: from before the clone's history, so no commit, fix or person here is theirs.
  const boundary = await blameBoundaryOf(ctx);
  const before = new Map<string, [number, number][]>();
  const stopped = [...rewrites.lines.keys()].filter((sha) => boundaryCommit(boundary, sha));
  for (const sha of stopped) rewrites.lines.delete(sha);
  for (const [path, by] of rewrites.byFile) {
    for (const sha of stopped) {
      const r = by.get(sha);
      if (!r) continue;
      before.set(path, [...(before.get(path) ?? []), ...r].sort((x, y) => x[0] - y[0]));
      by.delete(sha);
    }
  }
  // After the blames: a commit they brought in counts for its author's newest name.
  const ids = await identities(ctx);

  const facts = ctx.index.store.blame.commits(rewrites.lines.keys());
  const commits: ReviewOutput["commits"] = {};
  const family = familyFor(ctx, all.length === 1 ? all[0]!.path : undefined);
  for (const [sha, c] of facts) commits[shortSha(sha)] = tupleWithProvenance(ctx, [c.author, iso(c.time), c.subject] as [string, string, string], sha, family);
  const fixes: ReviewOutput["fixes"] = {};
  for (const [sha, message] of await messagesOf(ctx, [...rewrites.lines.keys()])) if (saysFix(message)) fixes[shortSha(sha)] = message;

  const files: ReviewFile[] = all.map((f) => {
    const counts = change.untracked.has(f.path) ? { ...untrackedCounts(ctx.index.repo.root, f.path), deletions: 0 } : f;
    const out: ReviewFile = fileOut({ ...f, ...counts });
    if (f.conflict) out.conflict = true;
    const by = rewrites.byFile.get(f.path);
    if (by?.size) out.rewrites = Object.fromEntries([...by].map(([sha, r]) => [shortSha(sha), r]));
    const old = before.get(f.path);
    if (old) out.beforeHistory = old;
    return out;
  });
  // Whom to ask also: the declared owners (CODEOWNERS of the old side) of the changed files.
  const codeowners = await codeownersAt(ctx, change.oldSide);
  const answer: ReviewOutput = {
    repo: ctx.index.repo.root,
    rev: head,
    ...(change.base ? { base: change.base, mergeBase: change.mergeBase } : {}),
    ...(change.state ? { state: change.state } : {}),
    files,
    filesTotal: all.length,
    commits,
    fixes,
    missing,
    people: peopleOf(rewrites.lines, facts, user, MAX_PEOPLE, ids),
    ...declaredOf(codeowners, all.map((f) => f.path)),
    truncated: false,
    ...(rewrites.leftOut.length ? { leftOut: rewrites.leftOut } : {}),
    ...(stopped.length ? { historyStops: historyStops(boundary, stopped) } : {}),
  };
  if (codeowners?.errors.length) answer.codeownersErrors = codeownersFields(codeowners).codeownersErrors;
  const notes: string[] = [];
  if (change.state) notes.push(change.base ? `The repository is mid-${change.state}: this reviews HEAD's commits since BASE, not the files on disk.` : STATE_NOTE[change.state]);
  if (all.length === 0) notes.push(nothingNote(input.base, input.staged === true, narrowed));
  if (all.length > MAX_FILES) notes.push(`The lines each change replaces (rewrites) are read for the first ${MAX_FILES} files.`);
  if (notes.length) answer.note = notes.join(" ");
  return answer;
}

function nothingNote(base: string | undefined, staged: boolean, paths: string[]): string {
  const where = paths.length ? ` under ${paths.join(", ")}` : "";
  if (base !== undefined) return `Nothing changed${where} since this branch left ${base}: HEAD has no change against the merge base.`;
  if (staged) return `Nothing is staged${where}: the staging area equals HEAD (git add what you mean to commit, or review without --staged).`;
  return `Nothing is changed${where}: the work tree and the staging area equal HEAD, and there are no untracked files.`;
}

function declaredOf(c: Codeowners | null, paths: string[]): { declared?: string[] } {
  const declared = c ? declaredFor(c, paths) : [];
  return declared.length ? { declared } : {};
}
