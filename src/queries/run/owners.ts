/** How owners is answered: blame lines per person summed per folder or file; the truck factor from each file's history. */
import { LoreError } from "../../errors.ts";
import { blameMany } from "../../index/blame.ts";
import { blameTarget } from "./blame-file.ts";
import { coauthorsOf } from "./coauthors.ts";
import { notAt, repoPath, round, treeAt } from "./common.ts";
import { fileAuthors, truckFactor } from "./truck-factor.ts";
import type { OWNERS_ARGS, OwnersOutput } from "../owners.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";
const ISLAND = 0.8;

interface People {
  lines: Map<string, number>;
  coLines: Map<string, number>;
}

/** Lines per person ("name\0email") and co-authored lines per person of each blame, remembered per index and mailmap: a saved blame never changes. */
const memo = new WeakMap<object, { mailmap: string | undefined; byBlame: Map<number, People> }>();

async function peopleOfBlames(ctx: QueryContext, files: (readonly [string, number])[]): Promise<Map<string, People>> {
  const mailmap = ctx.index.store.meta("mailmap");
  let m = memo.get(ctx.index.store);
  if (!m || m.mailmap !== mailmap || m.byBlame.size > 100_000) memo.set(ctx.index.store, (m = { mailmap, byBlame: new Map() }));
  const missing = files.filter(([, id]) => !m!.byBlame.has(id));
  if (missing.length) {
    const store = ctx.index.store.blame;
    const shas = new Set<string>();
    for (const [, id] of missing) for (const sha of store.linesByCommit(id).keys()) shas.add(sha);
    const facts = store.commits(shas);
    const key = (sha: string) => {
      const c = facts.get(sha);
      return c && `${c.author}\0${c.email}`;
    };
    const co = await coauthorsOf(ctx, shas, key);
    for (const [, id] of missing) {
      const p: People = { lines: new Map(), coLines: new Map() };
      for (const [sha, n] of store.linesByCommit(id)) {
        const who = key(sha);
        if (!who) continue;
        p.lines.set(who, (p.lines.get(who) ?? 0) + n);
        for (const c of co.get(sha) ?? []) p.coLines.set(c, (p.coLines.get(c) ?? 0) + n);
      }
      m.byBlame.set(id, p);
    }
  }
  return new Map(files.map(([path, id]) => [path, m!.byBlame.get(id)!]));
}

const person = (who: string) => {
  const [author, email] = who.split("\0");
  return { author: author!, email: email! };
};

export async function run(ctx: QueryContext, input: Input<typeof OWNERS_ARGS>): Promise<OwnersOutput> {
  if (input.by !== "file" && input.by !== "folder") throw new LoreError("BAD_ARGUMENT", `by must be "file" or "folder", not "${input.by}".`);
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const entries = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && entries.length === 0) throw notAt(ctx, scope, prefix, "has no files");
  const blames = await blameMany(ctx.index, entries.map((e) => blameTarget(ctx, scope, e, input.ignoreRevs)), ctx.blameWorkers);

  // A row per file, or per folder (or file) right below the path.
  const isFile = entries.length === 1 && entries[0]!.path === prefix;
  const rowOf = (path: string) => {
    if (input.by === "file" || isFile) return path;
    const rest = prefix === "" ? path : path.slice(prefix.length + 1);
    const slash = rest.indexOf("/");
    return slash < 0 ? path : (prefix === "" ? "" : prefix + "/") + rest.slice(0, slash);
  };
  const perFile = await peopleOfBlames(ctx, entries.flatMap((e) => {
    const b = blames.get(e.path);
    return b && !b.binary ? [[e.path, b.id] as const] : [];
  }));
  const rows = new Map<string, { files: number; lines: Map<string, number>; coLines: Map<string, number> }>();
  let total = 0;
  for (const e of entries) {
    const id = rowOf(e.path);
    const row = rows.get(id) ?? { files: 0, lines: new Map<string, number>(), coLines: new Map<string, number>() };
    row.files++;
    rows.set(id, row);
    const people = perFile.get(e.path);
    if (!people) continue;
    for (const [who, n] of people.lines) {
      row.lines.set(who, (row.lines.get(who) ?? 0) + n);
      total += n;
    }
    for (const [who, n] of people.coLines) row.coLines.set(who, (row.coLines.get(who) ?? 0) + n);
  }
  const results = [...rows].map(([path, row]) => {
    let lines = 0;
    let main: [string, number] | undefined;
    for (const [who, n] of row.lines) {
      lines += n;
      if (!main || n > main[1] || (n === main[1] && who < main[0])) main = [who, n];
    }
    const share = main && lines ? main[1] / lines : 0;
    const coLines = main ? row.coLines.get(main[0]) : undefined;
    return { path, files: row.files, lines, ...(main ? { main: { ...person(main[0]), share: round(share, 2), ...(coLines ? { coLines } : {}) } } : {}), authors: row.lines.size, island: share >= ISLAND };
  });
  results.sort((x, y) => y.lines - x.lines || y.files - x.files || (x.path < y.path ? -1 : 1));

  // The truck factor counts every file under the path with history, by degree-of-authorship.
  const { history, ownership } = ctx.index.store;
  const ids = entries.flatMap((e) => {
    const id = history.pathId(e.path);
    return id === undefined ? [] : [id];
  });
  const authorship = [...ownership.authorship(scope.table, ids).values()].filter((a) => a !== null);
  const tf = truckFactor(authorship.map((a) => (a.authors ??= fileAuthors(a))));
  return {
    repo: ctx.index.repo.root,
    path: prefix,
    rev: scope.commit,
    lines: total,
    files: entries.length,
    truckFactor: tf.factor,
    truckAuthors: tf.people.map(person),
    results: results.slice(0, input.limit),
    truncated: results.length > input.limit,
  };
}
