/** Files whose names the change's words speak of: a change to res.location in response.js names test/res.location.js. */
import { nameOf } from "./missing-names.ts";

const INDEX_NAMES = new Set(["index", "mod", "main", "readme"]);

/** The words of a file's name (its folder's for an index file), and the name's parts run together (body-limit: bodylimit). */
export function nameWords(path: string): { parts: string[]; joined?: string } {
  const n = nameOf(path);
  const stem = INDEX_NAMES.has(n.stem) ? (n.dir.slice(n.dir.lastIndexOf("/") + 1).toLowerCase() || n.stem) : n.stem;
  const parts = stem.split(/[.\-_ ]+/).filter((w) => w.length >= 3);
  const joined = stem.replace(/[.\-_ ]+/g, "");
  return parts.length > 1 || joined !== stem ? { parts, joined } : { parts };
}

interface WordIndex {
  /** The files each word names. */
  files: Map<string, string[]>;
  /** How rare each word is among the names (log N/df): "res" says little, "location" much. */
  idf: Map<string, number>;
  words: Map<string, { parts: string[]; joined?: string }>;
}

const indexes = new WeakMap<ReadonlySet<string>, WordIndex>();

function indexOf(tree: ReadonlySet<string>): WordIndex {
  let ix = indexes.get(tree);
  if (ix) return ix;
  ix = { files: new Map(), idf: new Map(), words: new Map() };
  for (const path of tree) {
    const w = nameWords(path);
    ix.words.set(path, w);
    for (const word of new Set([...w.parts, ...(w.joined ? [w.joined] : [])])) {
      const list = ix.files.get(word);
      if (list) list.push(path);
      else ix.files.set(word, [path]);
    }
  }
  for (const [word, files] of ix.files) ix.idf.set(word, Math.log((tree.size + 1) / files.length));
  indexes.set(tree, ix);
  return ix;
}

/** For each file of `tree` whose name the words speak of: the share of its name's weight they cover (1: all of it), and the rarest word matched. */
export function namedByWords(words: ReadonlySet<string>, tree: ReadonlySet<string>): Map<string, { share: number; word: string }> {
  const ix = indexOf(tree);
  const out = new Map<string, { share: number; word: string }>();
  for (const word of words)
    for (const path of ix.files.get(word) ?? []) {
      if (out.has(path)) continue;
      const w = ix.words.get(path)!;
      if (w.joined && words.has(w.joined)) {
        out.set(path, { share: 1, word: w.joined });
        continue;
      }
      let all = 0;
      let hit = 0;
      let rarest = "";
      for (const p of w.parts) {
        const idf = ix.idf.get(p) ?? 0;
        all += idf;
        if (words.has(p)) {
          hit += idf;
          if (!rarest || idf > (ix.idf.get(rarest) ?? 0)) rarest = p;
        }
      }
      if (hit > 0) out.set(path, { share: hit / all, word: rarest });
    }
  return out;
}
