/**
 * What owners reads of each file: lines per person from its blame, and its authors by
 * degree-of-authorship from its history. Remembered per index state (its head, the mailmap and
 * every write), so owners of a big tree reads them from memory after the first question, for any
 * path under it; people are interned, so the sums compare names by reference.
 */
import type { TreeEntry } from "../../git/records.ts";
import { blameMany } from "../../index/blame.ts";
import type { Scope } from "../../index/repo-index.ts";
import { dbStamp } from "../../store/stamp.ts";
import type { QueryContext } from "../context.ts";
import { blameTarget } from "./blame-file.ts";
import { coauthorsOf } from "./coauthors.ts";
import { fileAuthors } from "./truck-factor.ts";

export interface People {
  /** Lines per person ("name\0email"). */
  lines: Map<string, number>;
  /** Co-authored lines per person. */
  coLines: Map<string, number>;
}

export interface FileFacts {
  /** From the file's blame; absent for a binary file. */
  people?: People;
  /** Its authors by degree-of-authorship; absent when no commit of the scope touched the path. */
  authors?: string[];
}

interface Memo {
  key: string;
  files: Map<string, FileFacts>;
  /** One string per person, so every map keyed by people hashes and compares each name once. */
  names: Map<string, string>;
}

const memos = new WeakMap<object, Memo>();

/** The facts of each entry (text files and binary ones alike), by path. */
export async function ownerFacts(ctx: QueryContext, scope: Scope, entries: readonly TreeEntry[], ignoreRevs: boolean): Promise<Map<string, FileFacts>> {
  const { store } = ctx.index;
  const key = `${scope.commit}\0${ignoreRevs}\0${store.meta("mailmap") ?? ""}`;
  let memo = memos.get(store);
  // Any write may have replaced a blame or added history: start over (during a pass, every question does).
  const stamp = `${key}\0${dbStamp(store.db)}`;
  if (memo?.key !== stamp) memos.set(store, (memo = { key: stamp, files: new Map(), names: new Map() }));
  const missing = entries.filter((e) => !memo.files.has(e.path));
  if (missing.length) await learn(ctx, scope, missing, ignoreRevs, memo);
  // Blaming may have written to the index: what was learnt holds for this state.
  memo.key = `${key}\0${dbStamp(store.db)}`;
  return memo.files;
}

async function learn(ctx: QueryContext, scope: Scope, entries: readonly TreeEntry[], ignoreRevs: boolean, memo: Memo): Promise<void> {
  const intern = (who: string) => {
    const known = memo.names.get(who);
    if (known !== undefined) return known;
    memo.names.set(who, who);
    return who;
  };
  const { blame: blames, history, ownership } = ctx.index.store;
  const cached = await blameMany(ctx.index, entries.map((e) => blameTarget(ctx, scope, e, ignoreRevs)), ctx.blameWorkers);
  const text = entries.flatMap((e) => {
    const b = cached.get(e.path);
    return b && !b.binary ? [[e.path, b.id] as const] : [];
  });
  const shas = new Set<string>();
  for (const [, id] of text) for (const sha of blames.linesByCommit(id).keys()) shas.add(sha);
  const facts = blames.commits(shas);
  const whoOf = (sha: string) => {
    const c = facts.get(sha);
    return c && intern(`${c.author}\0${c.email}`);
  };
  const co = await coauthorsOf(ctx, shas, (sha) => whoOf(sha));
  const files = new Map<string, FileFacts>(entries.map((e) => [e.path, {}]));
  for (const [path, id] of text) {
    const p: People = { lines: new Map(), coLines: new Map() };
    for (const [sha, n] of blames.linesByCommit(id)) {
      const who = whoOf(sha);
      if (!who) continue;
      p.lines.set(who, (p.lines.get(who) ?? 0) + n);
      for (const c of co.get(sha) ?? []) p.coLines.set(intern(c), (p.coLines.get(intern(c)) ?? 0) + n);
    }
    files.get(path)!.people = p;
  }
  const ids = new Map<number, string>();
  for (const e of entries) {
    const id = history.pathId(e.path);
    if (id !== undefined) ids.set(id, e.path);
  }
  for (const [id, a] of ownership.authorship(scope.table, [...ids.keys()])) if (a) files.get(ids.get(id)!)!.authors = fileAuthors(a).map(intern);
  for (const [path, f] of files) memo.files.set(path, f);
}
