/**
 * The answer as the model reads it (structuredContent): the CLI's --json and the daemon's RPC
 * keep the whole object, for scripts, the report and people; the model pays for every token, so
 * its copy leaves out what the agent has or does not use. The envelope: `repo` only when the call
 * named a repository, the envelope's commit ids in 12 hex as lists have them (a 40-hex id and an
 * absolute path were ~35 tokens, a third of a small answer). The rows: the fields a task reads
 * (npm run bench:tasks), where a list's rows carried more (hotspots' churn details, co-change's
 * ratios, compare's per-commit files, which `files` already holds), and a commit's day for its
 * time (lists are in git's order; the second it was made is rarely a fact a task needs).
 */
import { z } from "zod";
import { zeroContext } from "./model-diff.ts";
import { compactRows, compactSchema } from "./model-rows.ts";
import { leanReview, leanReviewSchema } from "./model-review.ts";
import { agentRanking, blameProvenance, noAgentRows, oneCommitRange } from "./model-provenance.ts";
import { agentLines, agentLinesSchema } from "./model-agents.ts";
import { PAGED, TEXT_PAGED } from "../queries/pages.ts";
import { WINDOW_ARGS } from "../queries/shared-args.ts";
import { provenanceFields } from "../queries/provenance.ts";

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** The envelope's commit ids: the commit an answer is about (`rev`, the commit it is as of, is left out: the agent asked at HEAD, or named it). */
const IDS = ["head", "base", "mergeBase", "sha"] as const;
/** What every answer echoes of the question (the agent has it): left out, but where the answer's own says more (history: the file's name; its rev goes). */
const ECHOES = ["rev", "path", "paths", "query"] as const;
const KEEP_ECHO = new Set(["history", "show"]);
/** The questions whose `range` is the startLine and endLine asked, when the answer holds them all. */
const RANGED = new Set(["blame", "intent"]);
/** status is a diagnosis: its ids are compared with git rev-parse, whole. */
const WHOLE = new Set(["status"]);

/** Per question: the fields its rows leave out (list → fields), and top-level fields it leaves out. */
const LEAN: Record<string, { rows?: Record<string, string[]>; top?: string[] }> = {
  // score is commits × log10(10 + lines), as the description says: the rows are in its order.
  hotspots: { rows: { results: ["additions", "deletions", "authors", "lastChanged", "complexity", "score"] } },
  // The window's perFile and maxFiles are the defaults MCP cannot change; `from` says how far back it reached.
  cochange: { rows: { results: ["confidence", "jaccard"] }, top: [] },
  // (How many files the folder has is not who knows or owns it.)
  contributors: { rows: { results: ["share"] }, top: ["files"] },
  // Who owns it, by name and lines; emails are contributors' answer.
  owners: { rows: { authors: ["share", "email"], truckAuthors: ["email"] }, top: ["files"] },
  // A branch's +/- are its files'; its commits say what each did, as git log --oneline does (who and when: lore_log with not).
  compare: { rows: { commits: ["files", "filesTotal", "additions", "deletions", "time", "author"] } },
};

function short(v: unknown): unknown {
  return typeof v === "string" && FULL_ID.test(v) ? v.slice(0, 12) : v;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const dayOf = (v: unknown) => (typeof v === "string" && ISO_TIME.test(v) ? v.slice(0, 10) : v);
function day(row: unknown): unknown {
  if (!row || typeof row !== "object" || Array.isArray(row) || !("time" in row)) return row;
  return { ...row, time: dayOf((row as { time: unknown }).time) };
}

/** A commit (or an answer) whose files are all listed: their count, and its +/- (their sums), say nothing more. */
function withoutSums(row: Record<string, unknown>): Record<string, unknown> {
  const files = row.files;
  // intent's files leave out the path itself, which its count holds.
  if (Array.isArray(files) && row.message !== undefined && row.filesTotal === files.length + 1) {
    const { filesTotal: _t, ...r } = row;
    return r;
  }
  if (!Array.isArray(files) || row.filesTotal !== files.length) return row;
  const r = { ...row };
  delete r.filesTotal;
  const sum = (k: string) => files.reduce((n: number, f: Record<string, unknown>) => n + (typeof f[k] === "number" ? (f[k] as number) : NaN), 0);
  if (!r.merge && r.additions === sum("additions") && r.deletions === sum("deletions")) {
    delete r.additions;
    delete r.deletions;
  }
  return r;
}

/**
 * `where`: the call named its repository, or an absolute path, which picks the worktree that holds it
 * (DESIGN: the file the agent sees): then the answer says which worktree answered and the path as
 * that worktree names it, which the agent did not type.
 */
export function forModel(question: string, answer: Record<string, unknown>, where: boolean, input: Record<string, unknown> = {}): Record<string, unknown> {
  if (WHOLE.has(question)) return answer;
  const out: Record<string, unknown> = { ...answer };
  // An id the agent gave as a commit id (compare's base and head) is its own echo.
  for (const k of ["base", "head"]) if (typeof input[k] === "string" && /^[0-9a-f]{7,}$/.test(input[k] as string) && String(out[k]).startsWith(input[k] as string)) delete out[k];
  if (!where) delete out.repo;
  if (!KEEP_ECHO.has(question)) for (const k of ECHOES) if (!where || k === "rev" || k === "query") delete out[k];
  // The commit it is as of: the agent asked at HEAD, or named it.
  if (KEEP_ECHO.has(question)) delete out.rev;
  // A history's file and range as the agent gave them are its echo (a name it did not type stays).
  if (question === "history" && out.path === input.path) delete out.path;
  if (question === "history" && Array.isArray(out.range) && typeof input.lines === "string" && out.range.join(",") === input.lines.replace(/\s+/g, "")) delete out.range;
  // A range of lines the agent gave (startLine, endLine), whole: its echo (a page's range says the lines it holds).
  if (RANGED.has(question) && Array.isArray(out.range) && out.range[0] === Number(input.startLine) && out.range[1] === Number(input.endLine)) delete out.range;
  // A list that was not cut needs no word for it: truncated is said when it is true, and continue says it when there is one.
  if (out.truncated === false || typeof out.continue === "string") delete out.truncated;
  // A continued page: its lists and the next token, nothing the first page said, nor how many came
  // before (the agent asked with the token); a list that ended on an earlier page is left out. A
  // partial answer keeps how far it got.
  if (typeof out.after === "number" && out.partial !== true) {
    const keep = new Set([...(PAGED[question] ?? []).map((s) => s.key), ...(question === "blame" ? ["range", "commits", "agents", "boundary"] : []), TEXT_PAGED[question], "continue"]);
    for (const k of Object.keys(out)) if (!keep.has(k) || (Array.isArray(out[k]) && (out[k] as unknown[]).length === 0)) delete out[k];
  }
  if (question === "cochange" && out.window && typeof out.window === "object") {
    const { perFile, maxFiles: _m, ...rest } = out.window as Record<string, unknown>;
    out.window = { ...rest, ...(typeof rest.from === "string" ? { from: dayOf(rest.from) } : {}) };
    // The file's whole history was read (fewer commits than the window holds, no date): the window says nothing.
    if (rest.since === undefined && typeof perFile === "number" && typeof out.commits === "number" && out.commits < perFile) delete out.window;
  }
  // A folder's window that reached its first commit (fewer commits than it holds, no date) says nothing either.
  const w = out.window as { commits?: number; since?: string } | undefined;
  if (question === "hotspots" && w && w.since === undefined && typeof w.commits === "number" && w.commits < Number(input.commits ?? WINDOW_ARGS.commits.default)) delete out.window;
  if (question === "compare") {
    // behind: 0 says the merge base is base; a count of files that are all listed says nothing more.
    // (out.base may be gone already, as the agent's own echo)
    if (out.behind === 0 && out.mergeBase === answer.base) delete out.mergeBase;
    if (Array.isArray(out.files) && out.filesTotal === out.files.length) delete out.filesTotal;
    // ahead is the number of commits, when they are all listed.
    if (Array.isArray(out.commits) && out.truncated !== true && typeof out.continue !== "string" && typeof out.after !== "number" && out.ahead === out.commits.length) delete out.ahead;
  }
  for (const k of [...IDS, "rev"]) if (k in out) out[k] = short(out[k]);
  // (compare's commits lose their file lists below: their +/- stay.)
  if (Array.isArray(out.commits) && question !== "compare") out.commits = out.commits.map((c) => (c && typeof c === "object" && !Array.isArray(c) ? withoutSums(c as Record<string, unknown>) : c));
  // A commit's day: the list's order says the rest (a second-exact time was 13 tokens a row, a day 5).
  for (const list of ["commits", "results", "branches", "suspects"]) if (Array.isArray(out[list])) out[list] = (out[list] as unknown[]).map(day);
  // A line history's diffs as git diff -U0 prints them: the lines each commit changed.
  // (Its cut says the tool's argument, not the CLI's flag.)
  if (question === "history" && Array.isArray(out.commits)) out.commits = (out.commits as Record<string, unknown>[]).map((c) => (typeof c?.diff === "string" ? { ...c, diff: zeroContext(c.diff).replace(/\(--diff-lines\)$/, "(diffLines)") } : c));
  if (question === "blame" && out.commits && typeof out.commits === "object" && !Array.isArray(out.commits))
    out.commits = blameProvenance(Object.fromEntries(Object.entries(out.commits as Record<string, unknown>).map(([sha, c]) => [sha, Array.isArray(c) ? c.map((v, i) => (i === 1 ? dayOf(v) : v)) : c])));
  if (question === "blame") oneCommitRange(agentLines(out), input);
  if (Array.isArray(out.parents)) out.parents = out.parents.map(short);
  const lean = LEAN[question];
  for (const k of lean?.top ?? []) delete out[k];
  for (const [list, fields] of Object.entries(lean?.rows ?? {})) {
    if (!Array.isArray(out[list])) continue;
    out[list] = (out[list] as Record<string, unknown>[]).map((row) => {
      const r = { ...row };
      for (const f of fields) delete r[f];
      // hotspot: true marks the few above the knee; false is the obvious default.
      if (question === "hotspots" && r.hotspot === false) delete r.hotspot;
      // When someone last changed the path: the day says it.
      if (question === "contributors" && typeof r.lastChanged === "string") r.lastChanged = r.lastChanged.slice(0, 10);
      return r;
    });
  }
  if (question === "contributors") agentRanking(out, input);
  if (question === "owners" && input.limit === undefined) withoutMinorAuthors(out);
  withoutEchoedTotals(question, out);
  if (question === "review") leanReview(out);
  compactRows(question, out, question === "log" ? answer.paths : answer.path);
  if (question === "contributors") noAgentRows(out, input);
  // The truck factor is how many people leaving orphan the files: their list, where the rows keep it, says it.
  if (question === "owners" && Array.isArray(out.truckAuthors) && out.truckFactor === out.truckAuthors.length) delete out.truckFactor;
  return out;
}

/** owners' authors: those with less than this part of the first's lines own nothing (2 lines of 84 beside 77). */
const MINOR = 1 / 10;

/**
 * owners' authors as the model reads them: the first, and those with at least a tenth of the first's
 * lines (whom to ask). A name with 2 lines of a file, beside one with 77, cost more tokens than
 * whom it named was worth; `lines` then says that others hold the rest, and contributors names them all.
 * A `limit` the agent gives is kept to: it asked for that many.
 */
function withoutMinorAuthors(out: Record<string, unknown>): void {
  if (!Array.isArray(out.authors) || out.authors.length < 2) return;
  const first = Number((out.authors[0] as Record<string, unknown>).lines);
  out.authors = (out.authors as Record<string, unknown>[]).filter((a, i) => i === 0 || Number(a.lines) >= first * MINOR);
}

/** The totals withoutEchoedTotals may leave out, by question (optional in the model's schema). */
const ECHOED_TOTALS: Record<string, string[]> = { owners: ["lines", "truckFactor"], contributors: ["totalLines"], search: ["total"] };

const sumOf = (rows: unknown, k: string) => (rows as Record<string, unknown>[]).reduce((n, r) => n + (typeof r[k] === "number" ? (r[k] as number) : NaN), 0);

/**
 * A total the rows already say is left out (the fixed part of a small answer was most of it): owners'
 * lines and contributors' totalLines when every person is listed, search's total when every commit is,
 * and owners' truck factor when it is 1 and its one person is the first author, who holds most lines.
 */
function withoutEchoedTotals(question: string, out: Record<string, unknown>): void {
  const cut = out.truncated === true || typeof out.continue === "string";
  // (owners' authors are its top ones: their sum is its lines only when they are all.)
  if (question === "owners" && Array.isArray(out.authors)) {
    const lines = out.lines;
    if (lines === sumOf(out.authors, "lines")) delete out.lines;
    // A truck factor of 1 whose one person is the first author, holding most of the lines, says what the rows say.
    const first = out.authors[0] as Record<string, unknown> | undefined;
    const truck = Array.isArray(out.truckAuthors) ? (out.truckAuthors as Record<string, unknown>[]) : [];
    const firstHolds = !!first && typeof lines === "number" && Number(first.lines) * 2 > lines && (truck.length === 0 || truck[0]?.author === first.author);
    if (out.truckFactor === 1 && (out.authors.length === 1 || firstHolds)) delete out.truckFactor;
  }
  if (question === "contributors" && Array.isArray(out.results) && !cut && out.totalLines === sumOf(out.results, "lines")) delete out.totalLines;
  if (question === "search" && Array.isArray(out.results) && !cut && out.total === out.results.length) delete out.total;
  // A code search is git log -S unless it says regex (the agent asked for one or the other).
  if (question === "search" && out.mode === "pickaxe") delete out.mode;
}

/** The output schema of the model's copy: what forModel leaves out is optional. */
export function modelSchema(question: string, schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  let out = schema as z.ZodObject;
  const optional = (s: z.ZodObject, keys: string[]) => s.extend(Object.fromEntries(keys.filter((k) => k in s.shape).map((k) => [k, (s.shape[k] as z.ZodType).optional()])));
  const commits = out.shape.commits;
  if (commits instanceof z.ZodArray && commits.element instanceof z.ZodObject) out = out.extend({ commits: z.array(optional(commits.element, ["filesTotal", "additions", "deletions"])) });
  out = optional(out, ["repo", "truncated", ...(KEEP_ECHO.has(question) ? ["rev", ...(question === "history" ? ["path"] : [])] : ECHOES), ...(LEAN[question]?.top ?? []), ...(question === "compare" ? ["mergeBase", "base", "head", "ahead"] : []), ...(RANGED.has(question) ? ["range"] : []), ...(question === "blame" ? ["hunks", "lines"] : []), ...(question === "hotspots" || question === "cochange" ? ["window"] : []), ...(ECHOED_TOTALS[question] ?? [])]);
  // A range one commit wrote whole: its provenance beside it (oneCommitRange).
  if (question === "blame") out = out.extend(Object.fromEntries(Object.entries(provenanceFields(z)).map(([k, v]) => [k, v.describe("the lines', when one commit wrote them all")])));
  if (question === "cochange" && out.shape.window instanceof z.ZodObject) out = out.extend({ window: optional(out.shape.window, ["perFile", "maxFiles"]) });
  for (const [list, fields] of Object.entries(LEAN[question]?.rows ?? {})) {
    const arr = out.shape[list];
    const inner = arr instanceof z.ZodArray ? arr.element : undefined;
    if (inner instanceof z.ZodObject) out = out.extend({ [list]: z.array(optional(inner, [...fields, ...(question === "hotspots" ? ["hotspot"] : [])])) });
  }
  // blame's agents as lines, as contributors' are (the share is of the lines its hunks hold).
  if (question === "blame") out = out.extend({ agents: agentLinesSchema() });
  return question === "review" ? leanReviewSchema(out) : compactSchema(question, out);
}
