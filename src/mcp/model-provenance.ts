/** The model's copy of a one-commit question (a line's blame, agents' lines by contributors --by agent): what the question's own answer already says is left out. */

type Answer = Record<string, unknown>;

/**
 * blame of a range that one commit wrote whole (one hunk, no rename, committed): its commits table
 * says who wrote every line asked, and the file's length is not what was asked (git blame -L does
 * not say it either). The hunk and `lines` were a third of a one-line answer. The commit's
 * provenance is the lines' own: `release`, `pr`, `agent` beside it, as the answer's (an object in
 * the row was a token or two more of a one-line answer, whose question is often just that).
 */
export function oneCommitRange(out: Answer, input: Answer): void {
  const hunks = out.hunks;
  const commits = out.commits;
  if (!Array.isArray(hunks) || hunks.length !== 1 || !commits || typeof commits !== "object" || Object.keys(commits).length !== 1) return;
  if (typeof out.continue === "string" || out.truncated === true || out.partial === true || "range" in out) return;
  const [start, end, sha, ...renamed] = hunks[0] as unknown[];
  if (typeof sha !== "string" || renamed.length || start !== Number(input.startLine) || end !== Number(input.endLine) || !(sha in (commits as Answer))) return;
  delete out.hunks;
  delete out.lines;
  delete out.agents;
  const row = (commits as Answer)[sha];
  if (!Array.isArray(row) || row.length !== 4 || !row[3] || typeof row[3] !== "object") return;
  out.commits = { [sha]: row.slice(0, 3) };
  Object.assign(out, row[3]);
}

/** A subject ending `(#N)`, or GitHub's `Merge pull request #N from …`, says the pull request: a commit tuple's `pr` equal to it is left out. */
export function prInSubject(subject: unknown, pr: unknown): boolean {
  return typeof subject === "string" && typeof pr === "number" && new RegExp(`\\(#${pr}\\)\\s*$|^Merge pull request #${pr} from `).test(subject);
}

/** blame's commits [author, day, subject, {pr, release, agent}?]: the pr the subject says goes, and an object left empty. */
export function blameProvenance(commits: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(commits).map(([sha, c]) => {
      if (!Array.isArray(c) || c.length < 4 || !c[3] || typeof c[3] !== "object") return [sha, c];
      const { pr, ...rest } = c[3] as Answer;
      if (!prInSubject(c[2], pr)) return [sha, c];
      return [sha, Object.keys(rest).length ? [...c.slice(0, 3), rest, ...c.slice(4)] : [...c.slice(0, 3), ...c.slice(4)]];
    }),
  );
}

/**
 * contributors --by agent: the people ranked by their lines written with an agent; those with none
 * answer another question (who knows the folder), and are left out. When one was left out, no one
 * after them wrote with an agent: the cut says nothing. totalLines stays (the share's base).
 */
export function agentRanking(out: Answer, input: Answer): void {
  if (input.by !== "agent" || !Array.isArray(out.results)) return;
  const rows = out.results as Answer[];
  const kept = rows.filter((r) => typeof r.agentLines === "number" && r.agentLines > 0);
  if (kept.length === rows.length) return;
  out.results = kept;
  delete out.continue;
  delete out.truncated;
}

/** After the rows are compacted: where no one wrote with an agent, totalLines alone says it (agents is absent when none), no empty rows nor their columns. */
export function noAgentRows(out: Answer, input: Answer): void {
  if (input.by !== "agent" || out.agents !== undefined || !out.results || typeof out.results !== "object" || Object.keys(out.results).length) return;
  delete out.results;
  delete out.columns;
}
