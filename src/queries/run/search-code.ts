/** Code search: the commits `git log -S TEXT` (or -G REGEX) lists, with the files where the count changed. */
import { LoreError } from "../../errors.ts";
import { countInPatch, parsePickaxeLog, PICKAXE_FORMAT, type PickaxeCommit } from "../../git/parse-pickaxe.ts";
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { SEARCH_ARGS, SearchFile, SearchOutput } from "../search.ts";
import { decodePostings } from "../../store/code-postings.ts";
import type { BatchSpan } from "../../store/search-store.ts";
import { iso, repoPath, shortSha } from "./common.ts";
import { pickaxeWalk } from "./pickaxe-walk.ts";
import { leftOutWhy, MAX_LEFT_OUT, pathsHolding, pathspecArgs, unreadableObject, type LeftOut } from "./pickaxe-damage.ts";

/** How code searches were answered in this process (tests and benchmarks read it). */
export const codeSearchStats = { fromIndex: 0, throughGit: 0, batchesRead: 0 };

/** Files listed per commit; a sweeping change says how many there were in all (filesTotal). */
const MAX_FILES = 50;

/** -M as the change index pairs renames (git's default, whatever diff.renames says). */
const DIFF_ARGS = ["-M", "-z", "--raw", "-p", "--no-ext-diff", "--no-textconv", "--no-color", `--format=${PICKAXE_FORMAT}`];

export async function searchCode(ctx: QueryContext, input: Input<typeof SEARCH_ARGS>): Promise<SearchOutput> {
  const text = input.query;
  if (text === "") throw new LoreError("BAD_ARGUMENT", "search --code needs a text to look for.");
  if (input.newest || input.author !== undefined || input.since !== undefined)
    throw new LoreError("BAD_ARGUMENT", "newest, author and since go with a message search; search --code lists commits in git's order (oldest first with --oldest).");
  const find = input.regex ? jsRegex(text) : text;
  const scope = await ctx.index.scope(input.until);
  const limit = input.limit ?? 5;
  const paths = (input.paths ?? []).map((p) => repoPath(ctx, p)).filter((p) => p !== "");
  const { store } = ctx.index;
  // The index answers only for HEAD, over the whole history (not a LORE_MAX_COMMITS cut): once the
  // pass reached HEAD, or while it runs when the newest commits it has read hold the answer.
  const indexable = !input.regex && IDENTIFIER.test(text) && paths.length === 0 && scope.atHead && store.meta("truncated") === undefined;
  const left: LeftOut = { paths: [], why: [] };
  const fromIdx = indexable ? await fromIndex(ctx, text, input.oldest === true, limit + 1, store.meta("codeHead") === scope.commit, left) : undefined;
  codeSearchStats[fromIdx ? "fromIndex" : "throughGit"]++;
  const head = { repo: ctx.index.repo.root, rev: scope.commit, query: text, mode: input.regex ? ("regex" as const) : ("pickaxe" as const) };
  // Through git the walk is long: each commit found goes out at once if the answer is wanted early.
  ctx.partial?.begin(head, "results");
  let sent = 0;
  // HEAD's whole history, indexed: the index knows how many commits the walk has.
  const of = paths.length === 0 && store.meta("truncated") === undefined && store.meta("indexedHead") === scope.commit ? store.history.reachBounds().count : undefined;
  const walk = { commit: scope.commit, paths, oldest: input.oldest === true, want: limit + 1, of };
  const found =
    fromIdx ??
    // Oldest first, git's --reverse walks and diffs all history before its first line; the slices stop at the first found.
    (ctx.partial || input.oldest
      ? await pickaxeWalk(
          ctx,
          text,
          input.regex === true,
          walk,
          (c) => {
            if (sent++ < limit) ctx.partial?.add(resultOf(withCounts(c, find)));
          },
          left,
        )
      : // Nobody waits on a part of it: git's own walk, one process.
        await pickaxe(ctx, text, input.regex === true, { revs: [scope.commit], paths, limit: limit + 1 }, left)
    ).map((c) => withCounts(c, find));
  const commits = found.slice(0, limit);
  return { ...head, results: commits.map(resultOf), truncated: found.length > limit, ...(left.why.length ? { leftOut: left.why } : {}) };
}

function resultOf(c: Found) {
  return {
    sha: shortSha(c.sha),
    author: c.author,
    time: iso(c.time),
    subject: c.subject,
    files: c.files.slice(0, MAX_FILES),
    ...(c.files.length > MAX_FILES ? { filesTotal: c.files.length } : {}),
  };
}

/** A text the change index can answer for: a run of the characters its words are made of, as long as its words. */
const IDENTIFIER = /^[A-Za-z0-9_]{3,}$/;

/** A commit git log -S lists, and the files where the text's count changed with its occurrences on their changed lines. */
interface Found {
  sha: string;
  author: string;
  time: number;
  subject: string;
  files: SearchFile[];
}

function withCounts(c: PickaxeCommit, find: string | RegExp): Found {
  return { ...c, files: c.files.map((f) => ({ path: f.path, ...countInPatch(f.patch, find) })) };
}

/** How often `text` occurs in `word`, as git counts (left to right, not overlapping). */
function occurrences(word: string, text: string): number {
  let n = 0;
  for (let i = word.indexOf(text); i >= 0; i = word.indexOf(text, i + text.length)) n++;
  return n;
}

/** The change index's words in memory, one string with a word a line, per store: a scan finds those holding a text in well under a millisecond. */
const wordLists = new WeakMap<object, { stamp: string; lines: string }>();

function wordsContaining(ctx: QueryContext, text: string): string[] {
  const { search } = ctx.index.store;
  // The stamp before the words: words added in between make the copy newer than its stamp, never older.
  const stamp = search.codeWordsStamp();
  let list = wordLists.get(search);
  if (list?.stamp !== stamp) wordLists.set(search, (list = { stamp, lines: `\n${search.codeWords().join("\n")}\n` }));
  const { lines } = list;
  const found: string[] = [];
  for (let i = lines.indexOf(text); i >= 0; ) {
    const end = lines.indexOf("\n", i);
    found.push(lines.slice(lines.lastIndexOf("\n", i) + 1, end));
    i = lines.indexOf(text, end);
  }
  return found;
}

interface FileCount {
  added: number;
  removed: number;
  binary: boolean;
}

/**
 * git log -S from the change index: a text within words occurs in a file's changed lines as often
 * as the words that hold it, so summing their counts gives each file's added and removed
 * occurrences, and the commits where some file's two differ. Unsure commits (files the index could
 * not name) go to git, a few at a time, only when the answer reaches them. Undefined when a pass
 * still running has not read enough to answer.
 */
async function fromIndex(ctx: QueryContext, text: string, oldest: boolean, want: number, complete: boolean, left: LeftOut): Promise<Found[] | undefined> {
  const { search } = ctx.index.store;
  const { rank, spans } = search.codeIndexView();
  // A commit's place in the answer's order, from 1; 0: not reachable from the head.
  const place = (id: number) => {
    const r = rank[id] ?? 0;
    return r === 0 || !oldest ? r : rank.length - r;
  };
  // While the pass runs it may answer when what it read is the newest commits, every one of them
  // (a prefix of history: a pass reads newest first), and the answer lies within them.
  let covered = Infinity;
  if (!complete) {
    if (oldest) return undefined;
    covered = spans.reduce((n, b) => n + b.commits, 0);
    if (covered === 0 || Math.min(...spans.map((b) => b.newest)) !== 1 || Math.max(...spans.map((b) => b.oldest)) !== covered) return undefined;
  }
  const found = matchesInOrder(ctx, text, spans, place, oldest ? rank.length : 0, want);
  if (found.wantth > covered) return undefined;
  const kept = await confirmUnsure(ctx, text, found.order, found.unsure, want, left);
  const facts = search.commitFacts(kept.filter((k): k is number => typeof k === "number"));
  return kept.map((k) => {
    if (typeof k !== "number") return withCounts(k, text);
    const paths = search.diffOrder(k);
    const files = [...found.hits.get(k)!]
      .filter(([, f]) => f.added !== f.removed)
      .sort(([a], [b]) => a - b)
      .map(([ord, f]) => ({ path: paths[ord]!.path, added: f.binary ? 0 : f.added, removed: f.binary ? 0 : f.removed }));
    return { ...facts.get(k)!, files };
  });
}

/**
 * The commits whose count of `text` changed (and the unsure ones), in the answer's order, reading
 * the batches in that order and no further once those left all come after the `want`-th match (a
 * common word is found in the newest batch). `flip` turns ranks into places oldest first (0: newest
 * first). `wantth`: the place of the `want`-th sure match (Infinity when there are fewer).
 */
function matchesInOrder(ctx: QueryContext, text: string, batches: BatchSpan[], place: (id: number) => number, flip: number, want: number) {
  const { search } = ctx.index.store;
  const words = search.codeWordIds(wordsContaining(ctx, text));
  const times = new Map(words.map((w) => [w.id, occurrences(w.word, text)]));
  const unsure = search.codeUnsure();
  const spans = batches
    .map((b) => ({ batch: b.batch, first: flip ? flip - b.oldest : b.newest }))
    .sort((a, b) => a.first - b.first);
  const hits = new Map<number, Map<number, FileCount>>();
  const order: number[] = [];
  const sure: number[] = [];
  const wantth = () => (sure.length >= want ? sure.sort((a, b) => a - b)[want - 1]! : Infinity);
  let cutoff = Infinity;
  for (const span of spans) {
    if (wantth() < span.first) {
      cutoff = span.first;
      break;
    }
    codeSearchStats.batchesRead++;
    const found = new Map<number, Map<number, FileCount>>();
    for (const { wordId, entries } of search.codeLists(span.batch, [...times.keys()])) {
      const n = times.get(wordId)!;
      decodePostings(entries, (id, ord, plus, minus, binary) => {
        let files = found.get(id);
        if (!files) found.set(id, (files = new Map()));
        const f = files.get(ord);
        if (f) {
          f.added += plus * n;
          f.removed += minus * n;
        } else files.set(ord, { added: plus * n, removed: minus * n, binary });
      });
    }
    for (const [id, files] of found) {
      if (place(id) === 0) continue;
      hits.set(id, files);
      if (unsure.has(id)) order.push(id);
      else if ([...files.values()].some((f) => f.added !== f.removed)) {
        order.push(id);
        sure.push(place(id));
      }
    }
  }
  // Commits always unsure are candidates of every search, as far as the batches read reach.
  for (const [id, always] of unsure) if (always && !hits.has(id) && place(id) > 0 && place(id) < cutoff) order.push(id);
  return { order: order.sort((a, b) => place(a) - place(b)), hits, unsure, wantth: wantth() };
}

/** The first `want` of `order`, the unsure among them kept only where git lists them (with git's own files and patches). */
async function confirmUnsure(ctx: QueryContext, text: string, order: number[], unsure: Map<number, boolean>, want: number, left: LeftOut): Promise<(number | PickaxeCommit)[]> {
  const { search } = ctx.index.store;
  const kept: (number | PickaxeCommit)[] = [];
  for (let i = 0; i < order.length && kept.length < want; ) {
    // Enough commits for the answer if git keeps none of the unsure among them.
    const part: number[] = [];
    for (let enough = kept.length; i < order.length && enough < want; i++) {
      part.push(order[i]!);
      if (!unsure.has(order[i]!)) enough++;
    }
    const doubtful = part.filter((id) => unsure.has(id));
    const facts = search.commitFacts(doubtful);
    const confirmed = new Map<string, PickaxeCommit>();
    if (doubtful.length > 0)
      for (const c of await pickaxe(ctx, text, false, { revs: ["--no-walk=unsorted", "--stdin"], input: doubtful.map((id) => facts.get(id)!.sha).join("\n") + "\n" }, left)) confirmed.set(c.sha, c);
    for (const id of part) {
      if (!unsure.has(id)) kept.push(id);
      else {
        const c = confirmed.get(facts.get(id)!.sha);
        if (c) kept.push(c);
      }
    }
  }
  return kept.slice(0, want);
}

interface PickaxeWalk {
  revs: string[];
  paths?: string[];
  limit?: number;
  /** Oldest first (git walks everything for --reverse anyway). */
  reverse?: boolean;
  /** Revisions on stdin (with --stdin in revs). */
  input?: string;
}

/**
 * git log -S/-G with the files it keeps and their patches. On a damaged clone git stops at the
 * first content it cannot read: with `left`, the paths holding that object are left out and git
 * asked again (a few times at most), so the answer covers what can be read and says what it left out.
 */
export async function pickaxe(ctx: QueryContext, text: string, regex: boolean, walk: PickaxeWalk, left?: LeftOut): Promise<PickaxeCommit[]> {
  for (let tries = 0; ; tries++) {
    const { literal, specs } = pathspecArgs(walk.paths ?? [], left);
    const args = [literal, "log", regex ? `-G${text}` : `-S${text}`, ...DIFF_ARGS];
    if (walk.limit !== undefined) args.push("-n", String(walk.limit));
    if (walk.reverse) args.push("--reverse");
    args.push(...walk.revs, "--", ...specs);
    try {
      return parsePickaxeLog(await gitText(args, { ...ctx.index.git, input: walk.input }));
    } catch (err) {
      if (err instanceof LoreError && /invalid regex|regcomp|unmatched|invalid (preceding|character|back)/i.test(err.message))
        throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err.message.replace(/^git \w+ failed: /, "")}`);
      const blob = unreadableObject(err);
      if (!left || !blob || tries >= MAX_LEFT_OUT) throw err;
      const fresh = (await pathsHolding(ctx, blob, walk.revs, walk.input)).filter((p) => !left.paths.includes(p));
      if (fresh.length === 0) throw err;
      left.paths.push(...fresh);
      left.why.push(...fresh.map((p) => leftOutWhy(p, blob)));
    }
  }
}

/** POSIX bracket classes and GNU word edges, which JavaScript spells otherwise. */
const POSIX: [RegExp, string][] = [
  [/\[:alpha:\]/g, "A-Za-z"],
  [/\[:digit:\]/g, "0-9"],
  [/\[:alnum:\]/g, "A-Za-z0-9"],
  [/\[:upper:\]/g, "A-Z"],
  [/\[:lower:\]/g, "a-z"],
  [/\[:space:\]/g, "\\s"],
  [/\[:blank:\]/g, " \\t"],
  [/\[:xdigit:\]/g, "0-9A-Fa-f"],
  [/\[:punct:\]/g, "!-\\/:-@\\[-`{-~"],
  [/\\[<>]/g, "\\b"],
];

/** The regex git takes (POSIX extended), as JavaScript reads it for counting; BAD_ARGUMENT when it cannot compile. */
function jsRegex(text: string): RegExp {
  try {
    return new RegExp(POSIX.reduce((re, [from, to]) => re.replace(from, to), text), "g");
  } catch (err) {
    throw new LoreError("BAD_ARGUMENT", `The regex "${text}" does not compile: ${err instanceof Error ? err.message : String(err)}`);
  }
}
