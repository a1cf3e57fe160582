/** How show is answered: the commit from the index when it has it (files and +/- from the churn pass), the rest from git. */
import { agentSignalOf, familyFor, provenanceOf } from "./provenance.ts";
import { ownMarks } from "../../index/commit-marks.ts";
import type { CommitMark } from "../../store/provenance-store.ts";
import { stopsField } from "./history-stops.ts";
import { LoreError } from "../../errors.ts";
import { looksBinary } from "../../git/binary.ts";
import { LOG_FORMAT, RawLogParser } from "../../git/parse-log.ts";
import { git } from "../../git/run.ts";
import { parseLsTree } from "../../git/parse-tree.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { LogFile } from "../log.ts";
import type { SHOW_ARGS, ShowCommitOutput, ShowFileOutput, ShowOutput } from "../show.ts";
import { iso, lineRange, repoPath, shortSha } from "./common.ts";
import { repoPaths } from "./log.ts";
import { unreadableFiles } from "./show-unreadable.ts";
import { checkCount, commitOf, diffFiles, diffPatch, fileOut } from "./repo-diff.ts";

/** Lines of a file given without a range. */
const MAX_LINES = 1000;

export async function run(ctx: QueryContext, input: Input<typeof SHOW_ARGS>): Promise<ShowOutput> {
  checkCount("--diff-lines", input.diffLines);
  // REV:PATH, as git show takes it (":PATH" alone, the staged file, is not a commit's).
  const m = /^([^:]+):(.*)$/s.exec(input.rev);
  if (m) return showFile(ctx, m[1]!, m[2]!, input);
  if (input.startLine !== undefined || input.endLine !== undefined) throw new LoreError("BAD_ARGUMENT", "Lines (-L) are a file's: ask for REV:PATH with -L A,B.");
  return showCommit(ctx, input);
}

interface CommitFacts {
  id?: number;
  parents: string[];
  author: string;
  email: string;
  time: number;
  message: string;
  /** What its own words say, where the index has not stored it yet (a first index under way), as the index will mark it. */
  own?: CommitMark;
}

/** The commit's facts from the index, or from git when the index does not have it (yet). */
async function facts(ctx: QueryContext, sha: string): Promise<CommitFacts> {
  const row = ctx.index.store.history.commitBySha(sha);
  if (row) return { id: row.id, parents: row.parents.split(" ").filter(Boolean), author: row.author, email: row.email, time: row.time, message: row.message };
  const parser = new RawLogParser();
  const [c] = [...parser.push(await git(["show", "-s", "-z", `--format=${LOG_FORMAT}`, sha, "--"], ctx.index.git)), ...parser.end()];
  return { parents: c!.parents, author: c!.author, email: c!.email, time: c!.time, message: c!.message, own: ownMarks(c!) };
}

async function showCommit(ctx: QueryContext, input: Input<typeof SHOW_ARGS>): Promise<ShowCommitOutput> {
  const sha = await commitOf(ctx, input.rev);
  const paths = repoPaths(ctx, input.paths);
  const c = await facts(ctx, sha);
  const merge = c.parents.length > 1;
  let files: LogFile[];
  if (c.id !== undefined && !merge) {
    await ctx.index.ensureChurn([sha]);
    files = ctx.index.store.log.changesOf([c.id]).map((ch) => fileOut({ ...ch, oldPath: ch.old_path }));
  } else files = (await diffFiles(ctx, c.parents[0] ?? null, sha, [])).map(fileOut);
  // A file git cannot read has unknown counts, as a binary file has: it is left out, not called binary.
  const unreadable = await unreadableFiles(ctx, sha, c.parents[0] ?? null, files);
  for (const f of files) if (unreadable.has(f.path)) delete f.binary;
  const out: ShowCommitOutput = {
    repo: ctx.index.repo.root,
    sha,
    parents: c.parents,
    author: c.author,
    email: c.email,
    time: iso(c.time),
    message: c.message,
    ...provenanceOf(ctx, sha, familyFor(ctx, paths.length === 1 ? paths[0] : undefined), c.own),
    ...agentSignal(ctx, sha, c.own),
    ...(merge ? { against: "first-parent" as const } : {}),
    // All of them: the answer's pages hold 50 each (src/queries/pages.ts).
    files,
    filesTotal: files.length,
    truncated: false,
    ...(unreadable.size ? { leftOut: [...unreadable.values()] } : {}),
    ...(await stopsField(ctx, [sha])),
  };
  if (input.patch || (input.paths ?? []).length > 0) {
    const { patch, truncated } = await diffPatch(ctx, c.parents[0] ?? null, sha, paths, input.diffLines);
    out.patch = patch;
    out.truncated = truncated;
  }
  return out;
}

/** A file as it was at a commit: its text, cut at MAX_LINES unless a range is asked for. */
async function showFile(ctx: QueryContext, rev: string, rawPath: string, input: Input<typeof SHOW_ARGS>): Promise<ShowFileOutput> {
  const commit = await commitOf(ctx, rev);
  const path = repoPath(ctx, rawPath.replace(/^\/+/, ""));
  const at = shortSha(commit);
  if (path === "") throw new LoreError("NOT_A_FILE", `${rev}: names the repository root at ${at}, a folder; name a file in it (REV:PATH).`);
  // ls-tree -r lists a folder's files, never the folder itself.
  const entries = parseLsTree(await git(["--literal-pathspecs", "ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", path], ctx.index.git));
  const entry = entries.find((e) => e.path === path);
  if (!entry) {
    if (entries.some((e) => e.path.startsWith(path + "/"))) throw new LoreError("NOT_A_FILE", `${path} is a folder at ${at}; name a file in it.`);
    throw new LoreError("PATH_NOT_FOUND", `${path} does not exist at ${at} (${rev}); check the name, or ask lore log ${path} when it existed.`);
  }
  if (entry.type === "commit") throw new LoreError("NOT_A_FILE", `${path} is a submodule at ${at}; ask lore inside it.`);
  const bytes = await git(["cat-file", "blob", entry.blob], ctx.index.git);
  if (looksBinary(bytes)) throw new LoreError("BINARY_FILE", `${path} is a binary file at ${at}: it has no lines to show.`);
  const content = bytes.toString("utf8");
  const all = content.split("\n");
  if (all.at(-1) === "") all.pop();
  const ranged = input.startLine !== undefined || input.endLine !== undefined;
  const [a, b] = ranged ? lineRange(input.startLine, input.endLine, all.length, path) : [1, Math.min(all.length, MAX_LINES)];
  const lastIsEnd = b === all.length && !content.endsWith("\n");
  const text = all.slice(a - 1, b).join("\n") + (b >= a && !lastIsEnd ? "\n" : "");
  return { repo: ctx.index.repo.root, rev: commit, path, lines: all.length, range: [a, b], text, truncated: !ranged && all.length > MAX_LINES };
}

/** What says an agent made the commit, where one did (show is the one commit's whole account). */
function agentSignal(ctx: QueryContext, sha: string, own?: CommitMark): { agentSignal?: string } {
  const signal = agentSignalOf(ctx, sha, own);
  return signal ? { agentSignal: signal } : {};
}
