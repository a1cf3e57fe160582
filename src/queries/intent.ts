/** intent: the full messages of the commits that wrote a range of lines, and what else each touched. */
import { LoreError } from "../errors.ts";
import { LOG_FORMAT, parseRawLog } from "../git/parse-log.ts";
import { git } from "../git/run.ts";
import { blameFile } from "./blame-file.ts";
import { fileAt, iso, lineRange, repoPath } from "./common.ts";
import type { QueryContext } from "./context.ts";
import { defineQuery } from "./define.ts";

const MAX_FILES = 50;

export interface IntentCommit {
  sha: string;
  author: string;
  email: string;
  time: string;
  subject: string;
  message: string;
  lines: [number, number][];
  files: string[];
  filesTotal: number;
}

export interface IntentOutput {
  repo: string;
  path: string;
  rev: string;
  range: [number, number];
  commits: IntentCommit[];
}

interface CommitFacts {
  author: string;
  email: string;
  time: number;
  subject: string;
  message: string;
  files: string[];
}

/** Facts of a commit from the index, or from git for one outside it (a blame boundary in a capped index). */
async function commitFacts(ctx: QueryContext, sha: string): Promise<CommitFacts> {
  const c = ctx.index.store.history.commitBySha(sha);
  if (c) return { author: c.author, email: c.email, time: c.time, subject: c.subject, message: c.message, files: ctx.index.store.history.filesOf(c.id) };
  const rec = parseRawLog(await git(["log", "-1", "--raw", "-z", "-M", "--root", "--no-abbrev", "--no-ext-diff", `--format=${LOG_FORMAT}`, sha, "--"], ctx.index.git))[0];
  if (!rec) throw new LoreError("GIT_FAILED", `git could not show commit ${sha}.`);
  const files = rec.parents.length > 1 ? [] : rec.changes.map((ch) => ch.path).sort();
  return { author: rec.author, email: rec.email, time: rec.time, subject: rec.subject, message: rec.message, files };
}

export const intentQuery = defineQuery({
  name: "intent",
  summary: "Why lines exist: the full messages of the commits that wrote them",
  description:
    "The reason behind a range of lines: blames the range, then returns each commit that wrote lines in it with its full message, the lines it owns, and the other files it changed. Use instead of `git blame -L` followed by `git show` per commit, before changing code whose purpose is unclear.",
  args: {
    path: { type: "string", required: true, positional: true, description: "File path, relative to the repository root (or absolute)." },
    startLine: { type: "integer", required: true, min: 1, description: "First line of the range (1-based). CLI: -L START,END." },
    endLine: { type: "integer", required: true, min: 1, description: "Last line of the range, inclusive." },
    ignoreRevs: { type: "boolean", default: true, description: "Honour .git-blame-ignore-revs at the repository root (CLI: --no-ignore-revs)." },
  },
  output: (z) =>
    z.object({
      repo: z.string(),
      path: z.string(),
      rev: z.string(),
      range: z.tuple([z.number().int(), z.number().int()]),
      commits: z.array(
        z.object({
          sha: z.string(),
          author: z.string(),
          email: z.string(),
          time: z.string(),
          subject: z.string(),
          message: z.string(),
          lines: z.array(z.tuple([z.number().int(), z.number().int()])),
          files: z.array(z.string()),
          filesTotal: z.number().int(),
        }),
      ),
    }),
  async run(ctx, input): Promise<IntentOutput> {
    const scope = await ctx.index.scope(input.until);
    const path = repoPath(ctx, input.path);
    const entry = await fileAt(ctx, scope, path);
    const cached = await blameFile(ctx, scope, entry, input.ignoreRevs);
    if (cached.binary) throw new LoreError("BINARY_FILE", `${path} is a binary file: it has no lines. Use history for its changes.`);
    const [a, b] = lineRange(input.startLine, input.endLine, cached.lines, path);
    const bySha = new Map<string, [number, number][]>();
    for (const h of ctx.index.store.blame.hunks(cached.id, a, b)) {
      const ranges = bySha.get(h.sha) ?? [];
      const start = Math.max(h.start, a);
      const end = Math.min(h.end, b);
      const last = ranges[ranges.length - 1];
      if (last && last[1] + 1 === start) last[1] = end;
      else ranges.push([start, end]);
      bySha.set(h.sha, ranges);
    }
    const commits: IntentCommit[] = [];
    for (const [sha, lines] of bySha) {
      const f = await commitFacts(ctx, sha);
      commits.push({ sha, author: f.author, email: f.email, time: iso(f.time), subject: f.subject, message: f.message, lines, files: f.files.slice(0, MAX_FILES), filesTotal: f.files.length });
    }
    commits.sort((x, y) => (x.time < y.time ? 1 : x.time > y.time ? -1 : 0));
    return { repo: ctx.index.repo.root, path, rev: scope.commit, range: [a, b], commits };
  },
});
