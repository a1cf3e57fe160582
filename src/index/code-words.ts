/**
 * The change index: for each commit and each file of its diff, the words (runs of [A-Za-z0-9_],
 * 3+ long) on its added and removed lines and how often, read from `git log -p -U0 -M` in the
 * background pass, before blame and the line counts. A text made of such characters lies inside such words, so
 * how often it occurs in a file's changed lines is the sum over the words that contain it: code
 * search answers git log -S from the index alone (search --code), pairing renamed files as git
 * does. A binary file's patch shows no lines: its words are counted in the two blobs. A commit
 * whose files cannot be matched to the history index's, or whose binary blob is too large to
 * read, is kept as unsure: git confirms it when a search reaches it.
 */
import { blobSizes, catBlobs } from "../git/cat-file.ts";
import { gitSpool } from "../git/run.ts";
import { PostingWriter, type WordInFile } from "../store/code-postings.ts";
import type { IndexContext } from "./context.ts";

/** -M: renames paired as git log -S and the history index pair them; --full-index: a binary file's blob ids. */
const PATCH_ARGS = ["log", "-p", "-U0", "-M", "--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x1e%H"];
/** Commits per batch of posting lists: larger batches, fewer and longer lists (fewer bytes), more memory while the pass runs. */
const BATCH = 5000;
/** Binary blobs larger than this are not read: their commits stay unsure. */
const MAX_BINARY_BYTES = 16 << 20;
const WORD = /[A-Za-z0-9_]{3,}/g;
const NO_BLOB = /^0+$/;

export interface FilePatch {
  /** The "diff --git" line (latin1). */
  header: string;
  /** Each word's occurrences on the added and the removed lines. */
  words: Map<string, [number, number]>;
  binary: boolean;
  /** Old and new blob ids (the index line), when the patch has one. */
  blobs?: [string, string];
}

export interface CommitPatch {
  sha: string;
  files: FilePatch[];
}

/** Reads the patch line by line (latin1: one char per byte, so a word is plain ASCII), one commit at a time. */
export class PatchWordsParser {
  private rest = "";
  private current: CommitPatch | null = null;
  private file: FilePatch | null = null;
  private inHunks = false;

  push(chunk: Uint8Array): CommitPatch[] {
    const text = this.rest + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    const done: CommitPatch[] = [];
    let pos = 0;
    for (let nl = text.indexOf("\n", pos); nl >= 0; nl = text.indexOf("\n", pos)) {
      this.line(text.slice(pos, nl), done);
      pos = nl + 1;
    }
    this.rest = text.slice(pos);
    return done;
  }

  end(): CommitPatch[] {
    const done: CommitPatch[] = [];
    if (this.rest) this.line(this.rest, done);
    this.rest = "";
    if (this.current) done.push(this.current);
    this.current = null;
    return done;
  }

  private line(l: string, done: CommitPatch[]): void {
    const c = l.charCodeAt(0);
    if (c === 0x1e && /^\x1e[0-9a-f]{40,64}$/.test(l)) {
      if (this.current) done.push(this.current);
      this.current = { sha: l.slice(1), files: [] };
      this.file = null;
      return;
    }
    if (!this.current) return;
    if (l.startsWith("diff --git ")) {
      this.file = { header: l, words: new Map(), binary: false };
      this.current.files.push(this.file);
      this.inHunks = false;
      return;
    }
    const file = this.file;
    if (!file) return;
    if (!this.inHunks) {
      if (c === 0x40 && l.startsWith("@@")) this.inHunks = true;
      else if (l.startsWith("index ")) {
        const m = /^index ([0-9a-f]+)\.\.([0-9a-f]+)/.exec(l);
        if (m) file.blobs = [m[1]!, m[2]!];
      } else if (l.startsWith("Binary files ") || l.startsWith("GIT binary patch")) file.binary = true;
      return;
    }
    if (c !== 0x2b && c !== 0x2d) return;
    const m = l.slice(1).match(WORD);
    if (!m) return;
    const k = c === 0x2b ? 0 : 1;
    for (const w of m) {
      const n = file.words.get(w);
      if (n) n[k]++;
      else file.words.set(w, k === 0 ? [1, 0] : [0, 1]);
    }
  }
}

/** Each word's occurrences in a blob. */
function wordCounts(content: Buffer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of content.toString("latin1").match(WORD) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/**
 * Whether the patch's files are the history index's changes of the commit, in git's diff order
 * (by path, a rename at its new path): then a file's place in the patch names it. Headers git
 * quotes (unusual characters) are matched by place alone.
 */
function sameFiles(files: FilePatch[], changes: { path: string; oldPath?: string }[]): boolean {
  if (files.length !== changes.length) return false;
  return files.every((f, i) => {
    if (f.header.includes('"')) return true;
    const ch = changes[i]!;
    return f.header === Buffer.from(`diff --git a/${ch.oldPath ?? ch.path} b/${ch.path}`, "utf8").toString("latin1");
  });
}

/** One batch of the pass: posting lists by word, and the unsure commits (true: a candidate of every search). */
class Batch {
  postings = new Map<string, PostingWriter>();
  unsure = new Map<number, boolean>();
  /** Commits with a binary file, finished once their blobs are read. */
  binary: { id: number; files: FilePatch[] }[] = [];
  /** Every commit of the batch (a search reads batches newest first and stops when the rest are older than its answer). */
  ids: number[] = [];

  add(id: number, files: FilePatch[]): void {
    const byWord = new Map<string, WordInFile[]>();
    files.forEach((f, ord) => {
      for (const [w, [plus, minus]] of f.words) {
        const entry = { ord, plus, minus, binary: f.binary };
        const list = byWord.get(w);
        if (list) list.push(entry);
        else byWord.set(w, [entry]);
      }
    });
    for (const [w, list] of byWord) {
      let writer = this.postings.get(w);
      if (!writer) this.postings.set(w, (writer = new PostingWriter()));
      writer.add(id, list);
    }
  }

  /** Reads the binary files' blobs and adds their commits: each word's net change, as plus or minus. */
  async finishBinary(ix: IndexContext): Promise<void> {
    const blobs = [...new Set(this.binary.flatMap((c) => c.files.flatMap((f) => (f.binary && f.blobs ? f.blobs.filter((b) => !NO_BLOB.test(b)) : []))))];
    const sizes = await blobSizes(blobs, ix.git);
    const counts = new Map<string, Map<string, number>>();
    await catBlobs(
      blobs.filter((b) => (sizes.get(b) ?? Infinity) <= MAX_BINARY_BYTES),
      ix.git,
      (sha, content) => content && counts.set(sha, wordCounts(content)),
    );
    const none = new Map<string, number>();
    const read = (blob: string) => (NO_BLOB.test(blob) ? none : counts.get(blob));
    for (const c of this.binary) {
      const files = c.files.map((f) => {
        if (!f.binary) return f;
        const [before, after] = f.blobs ? [read(f.blobs[0]), read(f.blobs[1])] : [undefined, undefined];
        if (!before || !after) {
          this.unsure.set(c.id, true);
          return { ...f, words: new Map() };
        }
        const words = new Map<string, [number, number]>();
        for (const [w, n] of after) {
          const d = n - (before.get(w) ?? 0);
          if (d !== 0) words.set(w, d > 0 ? [d, 0] : [0, -d]);
        }
        for (const [w, n] of before) if (!after.has(w)) words.set(w, [0, n]);
        return { ...f, words };
      });
      this.add(c.id, files);
    }
    this.binary = [];
  }
}

/** Indexes the words each commit changed, for every commit reachable from the indexed head not done yet. */
export async function updateCodeWords(ix: IndexContext, batchSize = BATCH): Promise<boolean> {
  const { store } = ix;
  const head = store.meta("indexedHead");
  if (!head || store.meta("codeHead") === head) return false;
  const from = store.meta("codeHead");
  const known = from !== undefined && store.history.commitId(from) !== undefined;
  store.transaction(() => (known ? store.search.dropUnfinishedCodeBatches() : store.search.clearCodeIndex()));
  const max = ix.options.maxCommits;
  const parser = new PatchWordsParser();
  const ids = new Map<string, number>();
  let batch = new Batch();
  const add = (commits: CommitPatch[]) => {
    for (const c of commits) {
      const id = store.history.commitId(c.sha);
      if (id === undefined) continue;
      // A merge (git log -p shows it no diff, nor does -S) is still part of the batch: what the index covers has no holes.
      batch.ids.push(id);
      if (c.files.length === 0) continue;
      if (!sameFiles(c.files, store.search.diffOrder(id))) batch.unsure.set(id, false);
      if (c.files.some((f) => f.binary)) batch.binary.push({ id, files: c.files });
      else batch.add(id, c.files);
    }
  };
  const save = async () => {
    await batch.finishBinary(ix);
    const b = batch;
    store.transaction(() => store.search.saveCodePostings(b.postings, b.unsure, ids, b.ids));
    batch = new Batch();
  };
  await gitSpool([...PATCH_ARGS, ...(max && !known ? ["-n", String(max)] : []), head, ...(known ? ["--not", from!] : []), "--"], ix.git, async (chunk) => {
    add(parser.push(chunk));
    if (batch.ids.length >= batchSize) await save();
    // Questions in flight get a turn of the event loop after every chunk.
    else await new Promise<void>((r) => setImmediate(r));
  });
  add(parser.end());
  await save();
  // Only now may a search trust the index for this head.
  store.transaction(() => store.search.finishCodePass(head));
  return true;
}
