/**
 * The change index: for each commit, the words (runs of [A-Za-z0-9_], 3+ long) whose number of
 * occurrences changed in some file, read from `git log -p -U0` in the background after the line
 * counts. A search for a text made of such characters is then narrowed to the commits that
 * changed a word containing it: if a text's count in a file changed, the count of some word it
 * sits in changed too. git confirms the candidates (search --code). Renames are read as a deletion
 * and an addition, so the candidates hold however git pairs the files.
 */
import { gitSpool } from "../git/run.ts";
import type { IndexContext } from "./context.ts";

const PATCH_ARGS = ["log", "-p", "-U0", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x1e%H"];
/** Commits per batch of posting lists: larger batches, fewer and longer lists (fewer bytes), more memory while the pass runs. */
const BATCH = 5000;
const WORD = /[A-Za-z0-9_]{3,}/g;

interface CommitWords {
  sha: string;
  words: Set<string>;
  binary: boolean;
}

/** Reads the patch line by line (latin1: one char per byte, so a word is plain ASCII), one commit at a time. */
export class PatchWordsParser {
  private rest = "";
  private current: CommitWords | null = null;
  /** Net change of each word's count in the file being read. */
  private file = new Map<string, number>();
  private inHunks = false;

  push(chunk: Uint8Array): CommitWords[] {
    const text = this.rest + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    const done: CommitWords[] = [];
    let pos = 0;
    for (let nl = text.indexOf("\n", pos); nl >= 0; nl = text.indexOf("\n", pos)) {
      this.line(text.slice(pos, nl), done);
      pos = nl + 1;
    }
    this.rest = text.slice(pos);
    return done;
  }

  end(): CommitWords[] {
    const done: CommitWords[] = [];
    if (this.rest) this.line(this.rest, done);
    this.rest = "";
    this.endFile();
    if (this.current) done.push(this.current);
    this.current = null;
    return done;
  }

  private line(l: string, done: CommitWords[]): void {
    const c = l.charCodeAt(0);
    if (c === 0x1e && /^\x1e[0-9a-f]{40,64}$/.test(l)) {
      this.endFile();
      if (this.current) done.push(this.current);
      this.current = { sha: l.slice(1), words: new Set(), binary: false };
      return;
    }
    if (!this.current) return;
    if (l.startsWith("diff --git ")) {
      this.endFile();
      return;
    }
    if (!this.inHunks) {
      if (c === 0x40 && l.startsWith("@@")) this.inHunks = true;
      else if (l.startsWith("Binary files ") || l.startsWith("GIT binary patch")) this.current.binary = true;
      return;
    }
    if (c !== 0x2b && c !== 0x2d) return;
    const sign = c === 0x2b ? 1 : -1;
    const m = l.slice(1).match(WORD);
    if (m) for (const w of m) this.file.set(w, (this.file.get(w) ?? 0) + sign);
  }

  private endFile(): void {
    if (this.current) for (const [w, n] of this.file) if (n !== 0) this.current.words.add(w);
    this.file.clear();
    this.inHunks = false;
  }
}

/** Indexes the words each commit changed, for every commit reachable from the indexed head not done yet. */
export async function updateCodeWords(ix: IndexContext): Promise<boolean> {
  const { store } = ix;
  const head = store.meta("indexedHead");
  if (!head || store.meta("codeHead") === head) return false;
  const from = store.meta("codeHead");
  const known = from !== undefined && store.history.commitId(from) !== undefined;
  const max = ix.options.maxCommits;
  const parser = new PatchWordsParser();
  const ids = new Map<string, number>();
  let postings = new Map<string, number[]>();
  let binary: number[] = [];
  let held = 0;
  const add = (commits: CommitWords[]) => {
    for (const c of commits) {
      const id = store.history.commitId(c.sha);
      if (id === undefined) continue;
      for (const w of c.words) {
        const list = postings.get(w);
        if (list) list.push(id);
        else postings.set(w, [id]);
      }
      if (c.binary) binary.push(id);
      held++;
    }
  };
  const save = () => {
    // Ids ascending in each list: git log streams newest first, and ids grow with indexing order, not history.
    for (const list of postings.values()) list.sort((a, b) => a - b);
    const [p, b] = [postings, binary];
    store.transaction(() => store.search.saveCodePostings(p, b, ids));
    postings = new Map();
    binary = [];
    held = 0;
  };
  await gitSpool([...PATCH_ARGS, ...(max && !known ? ["-n", String(max)] : []), head, ...(known ? ["--not", from!] : []), "--"], ix.git, (chunk) => {
    add(parser.push(chunk));
    if (held >= BATCH) save();
    // Questions in flight get a turn of the event loop after every chunk.
    return new Promise<void>((r) => setImmediate(r));
  });
  add(parser.end());
  save();
  // Only now may a search trust the index for this head.
  store.setMeta("codeHead", head);
  return true;
}
