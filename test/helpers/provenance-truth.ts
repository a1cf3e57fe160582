/** What git's own log says of commits' provenance (the change request, the agent credited), read with git only: the truth lore's fields are held to. */
import { runGit } from "./git-repo.ts";

/** What git's log says each commit's change request is: its own subject or merge trailer, else the oldest merge whose M^1..M^2 holds it. */
export function prsByGit(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const records = runGit(dir, ["log", "--format=%H%x00%P%x00%s%x00%B%x1e"]).split("\x1e\n").filter(Boolean);
  const merges = new Map<string, number>();
  for (const rec of records) {
    const [sha, parents, subject, body] = rec.replace(/\x1e$/, "").split("\0") as [string, string, string, string];
    const m = /^Merge pull request #(\d+) from /.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject) ?? /^See merge request \S+!(\d+)\s*$/m.exec(body);
    if (!m) continue;
    out.set(sha, Number(m[1]));
    if (parents.includes(" ")) merges.set(sha, Number(m[1]));
  }
  // Oldest merges first: a commit belongs to the first change request that merged it.
  for (const merge of runGit(dir, ["rev-list", "--topo-order", "--reverse", "--merges", "HEAD"]).split("\n").filter((s) => merges.has(s))) {
    for (const sha of runGit(dir, ["rev-list", `${merge}^2`, `^${merge}^1`]).split("\n").filter(Boolean)) if (!out.has(sha)) out.set(sha, merges.get(merge)!);
  }
  return out;
}

/** The commits whose messages carry Claude's or Copilot's co-author trailer, or a "Generated with Claude Code" line, as git log --grep finds them. */
export function agentsByGit(dir: string): Map<string, string> {
  const grep = (pattern: string) => runGit(dir, ["log", "-i", "-E", `--grep=${pattern}`, "--format=%H"]).split("\n").filter(Boolean);
  const out = new Map<string, string>();
  for (const sha of [...grep("^[[:space:]]*co-authored-by: .*<noreply@anthropic\\.com>"), ...grep("generated with \\[?claude code")]) out.set(sha, "claude");
  for (const sha of grep("^[[:space:]]*co-authored-by: copilot <")) out.set(sha, "copilot");
  return out;
}

/** git log's truth (sha cut to 12) with each commit's pr and agent as git says them, in the place lore's log puts them. */
export function withGitProvenance<C extends { sha: string }>(dir: string, commits: C[]): (C & { pr?: number; agent?: string })[] {
  const { full, prs, agents } = provenanceOf(dir);
  return commits.map((c) => {
    const sha = full.get(c.sha) ?? c.sha;
    const out: C & { pr?: number; agent?: string } = { ...c };
    if (prs.has(sha)) out.pr = prs.get(sha)!;
    if (agents.has(sha)) out.agent = agents.get(sha)!;
    return out;
  });
}

const memo = new Map<string, { full: Map<string, string>; prs: Map<string, number>; agents: Map<string, string> }>();

/** The provenance git gives a repository's commits, read once per repository and set of refs (tests ask it many times). */
function provenanceOf(dir: string) {
  const key = `${dir}\0${runGit(dir, ["show-ref", "--head"])}`;
  let hit = memo.get(key);
  if (!hit) {
    hit = { full: new Map(runGit(dir, ["rev-list", "--all"]).split("\n").filter(Boolean).map((s) => [s.slice(0, 12), s])), prs: prsByGit(dir), agents: agentsByGit(dir) };
    memo.set(key, hit);
  }
  return hit;
}
