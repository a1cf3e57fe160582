/** How suspects is answered: the asked lines from a fix, the uncommitted change, a trace or PATH -L; their blame and the commits that removed what the fix restores, ranked. */
import { LoreError } from "../../errors.ts";
import { git, gitMaybe } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { Suspect, SUSPECTS_ARGS, SuspectsOutput } from "../suspects.ts";
import { iso, repoPath, shortSha } from "./common.ts";
import { commitOf } from "./repo-diff.ts";
import { refreshedIndex } from "./review-index.ts";
import { toRanges, type Ask } from "./suspect-blame.ts";
import { fixAsks, gather } from "./suspect-evidence.ts";
import { FIX_DIFF, parseFix } from "./suspect-fix.ts";
import { rank, whyOf, type Evidence } from "./suspect-rank.ts";
import { framesOf } from "./suspect-trace.ts";

/** A fix's evidence never changes (its commit and parent are fixed): the ranking may be asked of it again. */
const known = new Map<string, Evidence>();

interface Asked {
  rev: string;
  fix?: string;
  evidence: Evidence;
  /** What the asked lines are, for each suspect's why. */
  what: string;
  note?: string;
}

async function fromFix(ctx: QueryContext, rev: string): Promise<Asked> {
  const fix = await commitOf(ctx, rev);
  const parent = (await gitMaybe(["rev-parse", "--verify", "-q", `${fix}^1`], ctx.index.git))?.toString("utf8").trim();
  if (!parent) throw new LoreError("BAD_ARGUMENT", `${rev} is a root commit: it has no parent whose lines it could fix.`);
  const key = `${ctx.index.repo.root}\0${fix}`;
  let evidence = known.get(key);
  if (!evidence) {
    const files = parseFix((await git([...FIX_DIFF, parent, fix, "--"], ctx.index.git)).toString("utf8"));
    const { asks, restores } = await fixAsks(ctx, parent, files);
    evidence = await gather(ctx, parent, asks, restores);
    if (known.size > 256) known.clear();
    known.set(key, evidence);
  }
  return { rev: parent, fix, evidence, what: "the fix rewrites" };
}

async function fromWorkTree(ctx: QueryContext): Promise<Asked> {
  const head = (await ctx.index.scope()).commit;
  // review's refreshed copy of the staging area: git diff HEAD then writes nothing to the repository's.
  const copy = await refreshedIndex(ctx);
  const opts = copy ? { ...ctx.index.git, env: { ...ctx.index.git.env, GIT_INDEX_FILE: copy } } : ctx.index.git;
  const files = parseFix((await git(["-c", "diff.autoRefreshIndex=false", ...FIX_DIFF, "HEAD", "--"], opts)).toString("utf8"));
  const { asks, restores } = await fixAsks(ctx, head, files);
  const note = files.length === 0 ? "Nothing is changed against HEAD: give a fix commit, PATH -L A,B, or a trace." : undefined;
  return { rev: head, evidence: await gather(ctx, head, asks, restores), what: "your change rewrites", ...(note ? { note } : {}) };
}

async function fromLines(ctx: QueryContext, path: string, startLine: number, endLine = startLine): Promise<Asked> {
  const head = (await ctx.index.scope()).commit;
  const lines = `${startLine},${endLine}`;
  if (endLine < startLine) throw new LoreError("BAD_RANGE", `-L ${lines} ends before it starts.`);
  const file = repoPath(ctx, path);
  const content = (await gitMaybe(["cat-file", "-p", `${head}:${file}`], ctx.index.git))?.toString("utf8");
  if (content === undefined) throw new LoreError("PATH_NOT_FOUND", `${file} is not in HEAD (${head.slice(0, 12)}).`);
  const n = content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
  if (startLine < 1 || startLine > n) throw new LoreError("BAD_RANGE", `${file} has ${n} lines at HEAD; -L ${lines} is past its end.`);
  const ask: Ask = { path: file, lines: new Map() };
  for (let i = startLine; i <= Math.min(endLine, n); i++) ask.lines.set(i, 1);
  return { rev: head, evidence: await gather(ctx, head, [ask], []), what: `of ${file} -L ${startLine},${Math.min(endLine, n)}` };
}

async function fromTrace(ctx: QueryContext, trace: string): Promise<Asked> {
  const head = (await ctx.index.scope()).commit;
  const tree = (await git(["ls-tree", "-r", "--name-only", "-z", head], ctx.index.git)).toString("utf8").split("\0").filter(Boolean);
  const frames = framesOf(trace, ctx.index.repo.root, tree);
  const asks = new Map<string, Ask>();
  // The top frame weighs most: where it failed, then who called it.
  frames.forEach((f, k) => {
    const ask = asks.get(f.path) ?? { path: f.path, lines: new Map<number, number>() };
    ask.lines.set(f.line, Math.max(ask.lines.get(f.line) ?? 0, 1 / (1 + k)));
    asks.set(f.path, ask);
  });
  const note = frames.length === 0 ? "No frame of the trace names a file of this repository (frames outside it, node_modules included, are left out)." : undefined;
  return { rev: head, evidence: await gather(ctx, head, [...asks.values()], []), what: "at the trace's frames", ...(note ? { note } : {}) };
}

export async function run(ctx: QueryContext, input: Input<typeof SUSPECTS_ARGS>): Promise<SuspectsOutput> {
  if (input.bisect !== undefined) throw new LoreError("BAD_ARGUMENT", "--bisect runs your command on the command line only (lore suspects … --bisect CMD).");
  const forms = [input.rev, input.path, input.trace].filter((x) => x !== undefined).length;
  if (forms > 1) throw new LoreError("BAD_ARGUMENT", "Give one of: a fix commit (REV), PATH -L A,B, or --trace; not several.");
  if ((input.startLine !== undefined || input.endLine !== undefined) && input.path === undefined) throw new LoreError("BAD_ARGUMENT", "-L names lines of a file: give PATH -L A,B.");
  if (input.path !== undefined && input.startLine === undefined) throw new LoreError("BAD_ARGUMENT", "suspects PATH needs -L A,B: the lines that behave wrongly.");
  const asked =
    input.rev !== undefined ? await fromFix(ctx, input.rev) : input.path !== undefined ? await fromLines(ctx, input.path, input.startLine!, input.endLine) : input.trace !== undefined ? await fromTrace(ctx, input.trace) : await fromWorkTree(ctx);
  const e = asked.evidence;
  const suspects: Suspect[] = rank(e).map(({ sha }) => {
    const f = e.facts.get(sha);
    const lines = Object.fromEntries([...(e.blamed.get(sha)?.lines ?? [])].map(([p, ns]) => [p, toRanges(ns)]));
    return { sha: shortSha(sha), author: f?.author ?? "", time: iso(f?.time ?? 0), subject: f?.subject ?? "", lines, why: whyOf(e, sha, asked.what) };
  });
  const note = asked.note ?? (suspects.length === 0 && asked.fix ? "The fix only adds lines, and none of them restores what a commit removed: there is no line to blame." : undefined);
  return { repo: ctx.index.repo.root, rev: asked.rev, ...(asked.fix ? { fix: asked.fix } : {}), suspects, truncated: false, ...(note ? { note } : {}) };
}
