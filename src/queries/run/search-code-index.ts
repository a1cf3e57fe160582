/**
 * git log -S from the change index (the words of every commit's changed lines, counted per file):
 * the commits whose count of a text changed, in git's order, without a diff.
 */
import type { QueryContext } from "../context.ts";
import { decodePostings } from "../../store/code-postings.ts";
import type { BatchSpan } from "../../store/search-store.ts";
import { pickaxe, withCounts, type Found } from "./pickaxe-git.ts";
import type { PickaxeCommit } from "../../git/parse-pickaxe.ts";
import type { LeftOut } from "./pickaxe-damage.ts";

/** How code searches were answered in this process (tests and benchmarks read it). */
export const codeSearchStats = { fromIndex: 0, throughGit: 0, batchesRead: 0 };

/** A text the change index can answer for: a run of the characters its words are made of, as long as its words. */
export const IDENTIFIER = /^[A-Za-z0-9_]{3,}$/;

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
export async function fromIndex(ctx: QueryContext, text: string, oldest: boolean, want: number, complete: boolean, left: LeftOut): Promise<Found[] | undefined> {
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

