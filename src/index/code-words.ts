/**
 * The change index: for each commit and each file of its diff, the words (runs of [A-Za-z0-9_],
 * 3+ long) on its added and removed lines and how often, read from `git log -p -U0 -M` in the
 * background after the line counts. A text made of such characters lies inside such words, so
 * how often it occurs in a file's changed lines is the sum over the words that contain it: code
 * search answers git log -S from the index alone (search --code), pairing renamed files as git
 * does. A binary file's patch shows no lines: its words are counted in the two blobs. A commit
 * whose files cannot be matched to the history index's, or whose binary blob is too large to
 * read, is kept as unsure: git confirms it when a search reaches it.
 */
import { blobSizes, catBlobs } from "../git/cat-file.ts";
import { yieldToQuestions } from "../git/priority.ts";
import { LoreError } from "../errors.ts";
import { gitMaybe, gitSpool } from "../git/run.ts";
import { runtime } from "../runtime/index.ts";
import { PostingWriter } from "../store/code-postings.ts";
import type { IndexContext } from "./context.ts";
import { PatchWordsParser, type FilePatch } from "./patch-words.ts";
import { grown, WordTable } from "./word-table.ts";
import { sinceRevs } from "./walk-since.ts";

/** -M: renames paired as git log -S and the history index pair them; --full-index: a binary file's blob ids. */
export const PATCH_ARGS = ["log", "-p", "-U0", "-M", "--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x1e%H"];
/** Commits per batch of posting lists: larger batches, fewer and longer lists (fewer bytes), more memory while the pass runs. */
const BATCH = 5000;
/** Bytes of git's output parsed between two turns of the event loop (a question waits for one at most). */
const SLICE = 128 << 10;
/** Growth of the resident size since the last collection that makes the pass collect garbage (Runtime.collectGarbage). */
const GARBAGE_GROWTH = 16 << 20;
/** Binary blobs larger than this are not read: their commits stay unsure. */
const MAX_BINARY_BYTES = 16 << 20;
const NO_BLOB = /^0+$/;

/**
 * Whether the patch's files are the history index's changes of the commit, in git's diff order
 * (by path, a rename at its new path): then a file's place in the patch names it. Headers git
 * quotes (unusual characters) are matched by place alone.
 */
function sameFiles(headers: string[], changes: { path: string; oldPath?: string }[]): boolean {
  if (headers.length !== changes.length) return false;
  return headers.every((header, i) => {
    if (header.includes('"')) return true;
    const ch = changes[i]!;
    return header === Buffer.from(`diff --git a/${ch.oldPath ?? ch.path} b/${ch.path}`, "utf8").toString("latin1");
  });
}

/** One batch of the pass: posting lists by word number, and the unsure commits (true: a candidate of every search). */
class Batch {
  lists = new Map<number, PostingWriter>();
  unsure = new Map<number, boolean>();
  /** Binary files, counted once their blobs are read at the end of the batch. */
  binary: { id: number; ord: number; blobs?: [string, string] }[] = [];
  /** Every commit of the batch (a search reads batches newest first and stops when the rest are older than its answer). */
  ids: number[] = [];
  /** Lists with an entry open for the commit being read. */
  private open: PostingWriter[] = [];

  addWord(w: number, ord: number, plus: number, minus: number, binary: boolean): void {
    let list = this.lists.get(w);
    if (!list) this.lists.set(w, (list = new PostingWriter()));
    if (!list.open) this.open.push(list);
    list.file(ord, plus, minus, binary);
  }

  endCommit(id: number): void {
    for (const list of this.open) list.endCommit(id);
    this.open = [];
  }

  /** Reads the binary files' blobs and adds each word's net change, as plus or minus: a second entry of their commits. */
  async finishBinary(ix: IndexContext, table: WordTable): Promise<void> {
    const blobs = [...new Set(this.binary.flatMap((f) => (f.blobs ? f.blobs.filter((b) => !NO_BLOB.test(b)) : [])))];
    const sizes = await blobSizes(blobs, ix.git);
    const counts = new Map<string, Map<number, number>>();
    await catBlobs(
      blobs.filter((b) => (sizes.get(b) ?? Infinity) <= MAX_BINARY_BYTES),
      ix.git,
      (sha, content) => {
        if (!content) return;
        const n = new Map<number, number>();
        table.forEachWord(content, 0, content.length, (w) => n.set(w, (n.get(w) ?? 0) + 1));
        counts.set(sha, n);
      },
    );
    const none = new Map<number, number>();
    const read = (blob: string) => (NO_BLOB.test(blob) ? none : counts.get(blob));
    for (const [i, f] of this.binary.entries()) {
      const [before, after] = f.blobs ? [read(f.blobs[0]), read(f.blobs[1])] : [undefined, undefined];
      if (!before || !after) this.unsure.set(f.id, true);
      else {
        for (const [w, n] of after) {
          const d = n - (before.get(w) ?? 0);
          if (d !== 0) this.addWord(w, f.ord, Math.max(d, 0), Math.max(-d, 0), true);
        }
        for (const [w, n] of before) if (!after.has(w)) this.addWord(w, f.ord, 0, n, true);
      }
      if (this.binary[i + 1]?.id !== f.id) this.endCommit(f.id);
    }
    this.binary = [];
  }
}

/** Indexes the words each commit changed, for every commit reachable from the indexed head not done yet. */
export async function updateCodeWords(ix: IndexContext, batchSize = BATCH): Promise<boolean> {
  const { store } = ix;
  const head = store.meta("indexedHead");
  if (!head || store.meta("codeHead") === head) return false;
  // A damaged clone: every pass would read all history again to fail at the same object.
  const unreadable = store.meta("codeUnreadable");
  if (unreadable !== undefined) {
    if ((await gitMaybe(["cat-file", "-e", unreadable], ix.git)) === null) return false;
    store.setMeta("codeUnreadable", undefined);
  }
  const from = store.meta("codeHead");
  const known = from !== undefined && store.history.commitId(from) !== undefined;
  store.transaction(() => (known ? store.search.dropUnfinishedCodeBatches() : store.search.clearCodeIndex()));
  const max = ix.options.maxCommits;
  const table = new WordTable();
  // The change index's id of each word number, 0 until a batch with it is written.
  let wordIds = new Int32Array(1 << 12);
  let batch = new Batch();
  // Batches whose commits have all been read, waiting to be written (a batch ends between commits).
  const full: Batch[] = [];
  // The commit being read (undefined: not in the history index), and its files' headers.
  let id: number | undefined;
  let headers: string[] = [];
  const parser = new PatchWordsParser(table, {
    commit(sha) {
      if (batch.ids.length >= batchSize) {
        full.push(batch);
        batch = new Batch();
      }
      id = store.history.commitId(sha);
      headers = [];
      // A merge (git log -p shows it no diff, nor does -S) is still part of the batch: what the index covers has no holes.
      if (id !== undefined) batch.ids.push(id);
    },
    file(f: FilePatch) {
      if (id === undefined) return;
      headers.push(f.header);
      if (f.binary) batch.binary.push({ id, ord: f.ord, ...(f.blobs ? { blobs: f.blobs } : {}) });
      else f.counts.forEach((w, plus, minus) => batch.addWord(w, f.ord, plus, minus, false));
    },
    endCommit() {
      if (id === undefined) return;
      batch.endCommit(id);
      if (headers.length > 0 && !sameFiles(headers, store.search.diffOrder(id))) batch.unsure.set(id, false);
    },
  });
  const epoch = store.epoch;
  // Commit ids of a replaced index (an import landed meanwhile) name other commits: the pass stops, the next one starts over.
  const replaced = () => {
    if (store.epoch !== epoch) throw new LoreError("GIT_STOPPED", "the index was replaced while the change index was filled; the next pass fills it again.");
  };
  const save = async (b: Batch) => {
    if (b.ids.length === 0) return;
    await b.finishBinary(ix, table);
    if (table.size > wordIds.length) wordIds = grown(wordIds, Math.max(table.size, wordIds.length * 2));
    replaced();
    store.transaction(() => {
      const fresh = [...b.lists.keys()].filter((w) => wordIds[w] === 0);
      store.search.ensureCodeWords(fresh.map((w) => table.text(w))).forEach((wordId, i) => (wordIds[fresh[i]!] = wordId));
      store.search.saveCodePostings(
        [...b.lists].map(([w, list]) => [wordIds[w]!, list.done()]),
        b.unsure,
        b.ids,
      );
    });
  };
  const args = [...PATCH_ARGS, ...(max && !known ? ["-n", String(max)] : []), ...(known ? await sinceRevs(ix, head, from!) : [head]), "--"];
  let floor = process.memoryUsage.rss();
  // The parser copies what it keeps of a chunk (a line it cuts): chunks are lent.
  const lend = true;
  try {
    await gitSpool(args, ix.git, async (chunk) => {
      for (let at = 0; at < chunk.length; at += SLICE) {
        parser.push(chunk.subarray(at, at + SLICE));
        for (let b = full.shift(); b; b = full.shift()) await save(b);
        // A question waits for one slice at most, then has the thread to itself until it is answered.
        await yieldToQuestions();
        if (process.memoryUsage.rss() > floor + GARBAGE_GROWTH) {
          runtime.collectGarbage();
          floor = process.memoryUsage.rss();
        }
      }
    }, lend);
  } catch (err) {
    const missing = err instanceof LoreError && err.code === "GIT_FAILED" ? /unable to read ([0-9a-f]{40,64})/.exec(err.message)?.[1] : undefined;
    if (missing) store.setMeta("codeUnreadable", missing);
    throw err;
  }
  parser.end();
  for (const b of [...full, batch]) await save(b);
  replaced();
  // Only now may a search trust the index for this head.
  store.transaction(() => store.search.finishCodePass(head));
  return true;
}
