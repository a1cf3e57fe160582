/**
 * What owners reads of each file: lines per person from its blame, and its authors by
 * degree-of-authorship from its history. Remembered per index state (its head, the mailmap and
 * every write), so owners of a big tree reads them from memory after the first question, for any
 * path under it; people are numbered, so the sums add numbers by number.
 */
import { boundaryCommit, blameBoundaryOf } from "./history-stops.ts";
import type { TreeEntry } from "../../git/records.ts";
import { blameMany } from "../../index/blame.ts";
import { filesDone } from "../partial.ts";
import type { Scope } from "../../index/repo-index.ts";
import { dbStamp } from "../../store/stamp.ts";
import type { QueryContext } from "../context.ts";
import { blameTarget } from "./blame-file.ts";
import { coauthorsOf } from "./coauthors.ts";
import { identities, type Identities } from "./identity.ts";
import { fileAuthors } from "./truck-factor.ts";
import { addAgentLines, agentsByCommit } from "./agent-shares.ts";
import type { FileAuthorship } from "../../store/ownership-store.ts";

/** People by number: "name\0email" of each, and the number of each name. */
export interface PeopleIds {
  names: string[];
  ids: Map<string, number>;
}

export interface FileFacts {
  /** From the file's blame: the people who wrote its lines, and how many each (co-authored lines apart); absent for a binary file. */
  people?: { who: number[]; lines: number[]; coWho: number[]; coLines: number[]; before: number; agents: Map<string, number> };
  /** Its authors by degree-of-authorship; absent when no commit of the scope touched the path. */
  authors?: number[];
}

interface Memo extends PeopleIds {
  key: string;
  files: Map<string, FileFacts>;
}

const memos = new WeakMap<object, Memo>();

/** The facts of each entry (text files and binary ones alike), by path, and who the numbers in them are. */
export async function ownerFacts(ctx: QueryContext, scope: Scope, entries: readonly TreeEntry[], ignoreRevs: boolean): Promise<{ files: Map<string, FileFacts>; people: PeopleIds }> {
  const { store } = ctx.index;
  const key = `${scope.commit}\0${ignoreRevs}\0${store.meta("mailmap") ?? ""}`;
  let memo = memos.get(store);
  // Any write may have replaced a blame or added history: start over (during a pass, every question does).
  const stamp = `${key}\0${dbStamp(store.db)}`;
  if (memo?.key !== stamp) memos.set(store, (memo = { key: stamp, files: new Map(), names: [], ids: new Map() }));
  const missing = entries.filter((e) => !memo.files.has(e.path));
  if (missing.length) await learn(ctx, scope, missing, ignoreRevs, memo);
  // Blaming may have written to the index: what was learnt holds for this state.
  memo.key = `${key}\0${dbStamp(store.db)}`;
  return { files: memo.files, people: memo };
}

async function learn(ctx: QueryContext, scope: Scope, entries: readonly TreeEntry[], ignoreRevs: boolean, memo: Memo): Promise<void> {
  const idOf = (who: string) => {
    let id = memo.ids.get(who);
    if (id === undefined) {
      id = memo.names.push(who) - 1;
      memo.ids.set(who, id);
    }
    return id;
  };
  const { blame: blames, history, ownership } = ctx.index.store;
  const cached = await blameMany(ctx.index, entries.map((e) => blameTarget(ctx, scope, e, ignoreRevs)), ctx.blameWorkers, filesDone(ctx.partial, entries.length));
  const text = entries.flatMap((e) => {
    const b = cached.get(e.path);
    return b && !b.binary ? [[e.path, b.id] as const] : [];
  });
  const boundary = await blameBoundaryOf(ctx);
  const shas = new Set<string>();
  for (const [, id] of text) for (const sha of blames.linesByCommit(id).keys()) shas.add(sha);
  const facts = blames.commits(shas);
  // One person, one row: the authors sharing an email are counted as one (identity.ts).
  const people = await identities(ctx);
  const nameOf = (sha: string) => {
    const c = facts.get(sha);
    return c && people.of(c.author, c.email);
  };
  const co = await coauthorsOf(ctx, shas, nameOf, people.ofKey);
  const agentOf = agentsByCommit(ctx);
  const files = new Map<string, FileFacts>(entries.map((e) => [e.path, {}]));
  for (const [path, id] of text) {
    const lines = new Map<number, number>();
    const coLines = new Map<number, number>();
    let before = 0;
    const agents = new Map<string, number>();
    for (const [sha, n] of blames.linesByCommit(id)) {
      // A shallow clone's boundary commit: git pins on it every line written there or before.
      if (boundaryCommit(boundary, sha)) {
        before += n;
        continue;
      }
      const who = nameOf(sha);
      if (!who) continue;
      const i = idOf(who);
      lines.set(i, (lines.get(i) ?? 0) + n);
      addAgentLines(agents, agentOf.get(sha), n);
      for (const c of co.get(sha) ?? []) coLines.set(idOf(c), (coLines.get(idOf(c)) ?? 0) + n);
    }
    files.get(path)!.people = { who: [...lines.keys()], lines: [...lines.values()], coWho: [...coLines.keys()], coLines: [...coLines.values()], before, agents };
  }
  const ids = new Map<number, string>();
  for (const e of entries) {
    const id = history.pathId(e.path);
    if (id !== undefined) ids.set(id, e.path);
  }
  // Degree-of-authorship leaves the boundary out: it is no file's creator, and changed nothing it can be seen to.
  const without = [...boundary.keys()].flatMap((sha) => history.commitId(sha) ?? []);
  for (const [id, a] of ownership.authorship(scope.table, [...ids.keys()], without)) if (a) files.get(ids.get(id)!)!.authors = fileAuthors(asPeople(a, people)).map(idOf);
  for (const [path, f] of files) memo.files.set(path, f);
}

/** A file's authorship with the changes of one person's several names added together. */
function asPeople(a: FileAuthorship, people: Identities): FileAuthorship {
  const changes = new Map<string, number>();
  for (const [who, n] of a.changes) {
    const p = people.ofKey(who);
    changes.set(p, (changes.get(p) ?? 0) + n);
  }
  return { changes, creator: people.ofKey(a.creator) };
}
