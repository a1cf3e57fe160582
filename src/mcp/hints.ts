/** One line telling the agent how to get the rest of a list that was cut short. */
import type { Capped } from "./cap.ts";

type Answer = Record<string, unknown>;

function blameHint(r: Answer, kept: number, total: number): string {
  const hunks = r.hunks as [number, number, string][];
  const range = r.range as [number, number];
  const last = hunks[hunks.length - 1]![1];
  return `Cut to ${kept} of ${total} hunks (lines ${range[0]}-${last} of ${range[0]}-${range[1]}) to fit the answer size; ask again with startLine ${last + 1} for the rest, or a narrower range.`;
}

function historyHint(r: Answer, kept: number | undefined): string {
  const commits = r.commits as { sha: string; path?: string; oldPath?: string }[];
  const last = commits[commits.length - 1]!;
  const shown = kept === undefined ? "" : `Cut to ${kept} commits to fit the answer size. `;
  return `${shown}For older commits ask again with until "${last.sha}^" and path "${last.oldPath ?? last.path ?? r.path}".`;
}

/** A file's page ended at line `end`: short, as a long file is read a page a call and this line comes with every page. */
const moreLines = (lines: number, end: number) => `… ${lines - end} more lines from startLine ${end + 1}`;

/** The hint for a capped (or query-truncated) answer, or undefined when the whole answer is there. */
export function moreHint(name: string, capped: Capped, limit: unknown, skipped = 0): string | undefined {
  const r = capped.result;
  if (capped.cut) {
    const { kept, total } = capped.cut;
    if (name === "show" && capped.cut.text === "text") return moreLines(r.lines as number, (r.range as [number, number])[0] + kept - 1);
    if (name === "git" || name === "changes") return `Output cut to ${kept} of ${total} characters to fit the answer size; narrow it (paths, a shorter range, -n).`;
    if (name === "blame") return blameHint(r, kept, total);
    if (name === "intent")
      return kept < total
        ? `Cut to ${kept} of ${total} commits to fit the answer size; ask about a narrower startLine/endLine range.`
        : "A long commit message was shortened to fit the answer size; git show <sha> prints it whole.";
    if (name === "history") return historyHint(r, kept);
    if (capped.cut.text) return `The ${capped.cut.text} was cut to ${kept} of ${total} lines to fit the answer size; ask for fewer paths or lines.`;
    if (name === "log" || name === "compare") return `Cut to ${kept} of ${total} commits to fit the answer size; ask with limit ${kept}, or with paths.`;
    return `Cut to ${kept} of ${total} results to fit the answer size; ask with ${limit !== undefined ? `limit ${kept} or ` : ""}a narrower path.`;
  }
  if (r.truncated !== true) return undefined;
  if (name === "show" && typeof r.text === "string") return moreLines(r.lines as number, (r.range as [number, number])[1]);
  if (name === "git" || name === "changes") return "Output cut short; narrow it (paths, a shorter range, -n).";
  if (name === "history") return `There are more commits than limit ${limit}. ${historyHint(r, undefined)}`;
  // The rest, without what this answer said again.
  if ((name === "log" || name === "compare") && Array.isArray(r.commits)) return `There are more commits than limit ${limit}; ask again with skip ${skipped + r.commits.length} (and the same arguments) for the next ones.`;
  // A tool that offers no limit gives its best results only: nothing more to ask for.
  if (limit === undefined) return undefined;
  return `There are more results than limit ${limit}; raise limit to see them.`;
}
