/** The branches git has (local and remote-tracking) with their upstreams and worktrees, and the default branch they are measured against. */
import { LoreError } from "../../errors.ts";
import { git } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

export interface BranchRef {
  /** refs/heads/x or refs/remotes/origin/x. */
  ref: string;
  /** As git branch -a names it. */
  name: string;
  remote: boolean;
  tip: string;
  upstream?: string;
  gone?: true;
  worktree?: string;
}

const FORMAT = ["%(refname)", "%(objectname)", "%(objecttype)", "%(upstream:short)", "%(upstream:track)", "%(worktreepath)", "%(symref)"].join("%00");

export interface Refs {
  branches: BranchRef[];
  /** The default branch's ref. */
  defaultRef: string;
}

/** One for-each-ref: every branch, and origin/HEAD's target (a symbolic ref, left out of the list). */
export async function readRefs(ctx: QueryContext): Promise<Refs> {
  const out = (await git(["for-each-ref", `--format=${FORMAT}`, "refs/heads", "refs/remotes"], ctx.index.git)).toString("utf8");
  const branches: BranchRef[] = [];
  let originHead: string | undefined;
  for (const line of out.split("\n")) {
    if (!line) continue;
    const [ref, tip, type, upstream, track, worktree, symref] = line.split("\0") as string[];
    if (symref) {
      if (ref === "refs/remotes/origin/HEAD") originHead = symref;
      continue;
    }
    // A ref to a tag or a tree is no branch of commits.
    if (type !== "commit") continue;
    const remote = ref!.startsWith("refs/remotes/");
    branches.push({
      ref: ref!,
      name: ref!.slice(remote ? "refs/remotes/".length : "refs/heads/".length),
      remote,
      tip: tip!,
      ...(upstream ? { upstream } : {}),
      ...(track === "[gone]" ? { gone: true as const } : {}),
      ...(worktree ? { worktree } : {}),
    });
  }
  const has = (ref: string) => branches.some((b) => b.ref === ref);
  const current = branches.find((b) => !b.remote && b.worktree === ctx.index.repo.root)?.ref;
  const defaultRef = [originHead, "refs/heads/main", "refs/heads/master", current].find((r) => r !== undefined && has(r));
  if (!defaultRef) throw new LoreError("NO_COMMITS", "This repository has no branch to measure the others against (no origin/HEAD, main, master, or checked-out branch).");
  return { branches, defaultRef };
}
